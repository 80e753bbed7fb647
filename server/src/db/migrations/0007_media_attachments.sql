CREATE TABLE "media_attachments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "media_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"post_id" bigint,
	"position" integer DEFAULT 0 NOT NULL,
	"key" text NOT NULL,
	"preview_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"blurhash" text NOT NULL,
	"alt" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_attachments_position_range" CHECK ("media_attachments"."position" >= 0 AND "media_attachments"."position" < 4)
);
--> statement-breakpoint
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_attachments" ADD CONSTRAINT "media_attachments_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_attachments_post_idx" ON "media_attachments" USING btree ("post_id","position") WHERE "media_attachments"."post_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "media_attachments_unattached_idx" ON "media_attachments" USING btree ("created_at") WHERE "media_attachments"."post_id" IS NULL;--> statement-breakpoint
CREATE INDEX "media_attachments_key_idx" ON "media_attachments" USING btree ("key");--> statement-breakpoint
CREATE INDEX "media_attachments_preview_key_idx" ON "media_attachments" USING btree ("preview_key");