ALTER TABLE "posts" ADD COLUMN "uri" text;--> statement-breakpoint
CREATE UNIQUE INDEX "posts_uri_key" ON "posts" USING btree ("uri") WHERE "posts"."uri" IS NOT NULL;