CREATE TABLE "post_mentions" (
	"post_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "post_mentions_post_id_user_id_pk" PRIMARY KEY("post_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "quote_policy" text DEFAULT 'anyone' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "default_visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "post_mentions" ADD CONSTRAINT "post_mentions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_mentions" ADD CONSTRAINT "post_mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_mentions_user_post_idx" ON "post_mentions" USING btree ("user_id","post_id");--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_visibility_check" CHECK ("posts"."visibility" IN ('public', 'unlisted', 'followers', 'direct'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_quote_policy_check" CHECK ("posts"."quote_policy" IN ('anyone', 'followers', 'nobody'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_default_visibility_check" CHECK ("users"."default_visibility" IN ('public', 'unlisted', 'followers', 'direct'));