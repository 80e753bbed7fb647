ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "posts" DROP CONSTRAINT "posts_counts_nonnegative";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "repost_of_id" bigint;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "repost_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_repost_of_id_posts_id_fk" FOREIGN KEY ("repost_of_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "posts_author_repost_key" ON "posts" USING btree ("author_id","repost_of_id") WHERE "posts"."repost_of_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "posts_repost_of_created_idx" ON "posts" USING btree ("repost_of_id","created_at","id") WHERE "posts"."repost_of_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" IN ('like', 'reply', 'follow', 'mention', 'quote', 'repost'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_counts_nonnegative" CHECK ("posts"."reply_count" >= 0 AND "posts"."like_count" >= 0 AND "posts"."repost_count" >= 0);