CREATE TABLE "conversations" (
	"user_id" bigint NOT NULL,
	"root_id" bigint NOT NULL,
	"last_post_id" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"unread" boolean DEFAULT false NOT NULL,
	CONSTRAINT "conversations_user_id_root_id_pk" PRIMARY KEY("user_id","root_id")
);
--> statement-breakpoint
CREATE TABLE "direct_threads" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"root_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_threads" ADD CONSTRAINT "direct_threads_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_user_updated_idx" ON "conversations" USING btree ("user_id","updated_at","last_post_id");--> statement-breakpoint
CREATE INDEX "conversations_user_unread_idx" ON "conversations" USING btree ("user_id") WHERE "conversations"."unread";--> statement-breakpoint
CREATE INDEX "direct_threads_root_post_idx" ON "direct_threads" USING btree ("root_id","post_id");