CREATE TABLE "post_hashtags" (
	"tag" text NOT NULL,
	"post_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_hashtags_tag_post_id_pk" PRIMARY KEY("tag","post_id")
);
--> statement-breakpoint
ALTER TABLE "post_hashtags" ADD CONSTRAINT "post_hashtags_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_hashtags_tag_created_idx" ON "post_hashtags" USING btree ("tag","created_at","post_id");--> statement-breakpoint
CREATE INDEX "post_hashtags_created_idx" ON "post_hashtags" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "post_hashtags_post_id_idx" ON "post_hashtags" USING btree ("post_id");