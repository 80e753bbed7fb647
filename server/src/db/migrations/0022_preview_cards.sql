CREATE TABLE "post_cards" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"card_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preview_cards" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "preview_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"url" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"site_name" text DEFAULT '' NOT NULL,
	"author_name" text DEFAULT '' NOT NULL,
	"image_key" text,
	"image_width" integer,
	"image_height" integer,
	"blurhash" text,
	CONSTRAINT "preview_cards_state" CHECK ("preview_cards"."state" IN ('pending', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "post_cards" ADD CONSTRAINT "post_cards_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_cards" ADD CONSTRAINT "post_cards_card_id_preview_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."preview_cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_cards_card_idx" ON "post_cards" USING btree ("card_id");--> statement-breakpoint
CREATE UNIQUE INDEX "preview_cards_url_key" ON "preview_cards" USING btree ("url");--> statement-breakpoint
CREATE INDEX "preview_cards_image_key_idx" ON "preview_cards" USING btree ("image_key") WHERE "preview_cards"."image_key" IS NOT NULL;