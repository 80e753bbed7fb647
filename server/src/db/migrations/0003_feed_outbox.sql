CREATE TABLE "feed_outbox" (
	"post_id" bigint PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feed_outbox" ADD CONSTRAINT "feed_outbox_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;