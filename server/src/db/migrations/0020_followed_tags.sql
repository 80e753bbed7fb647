CREATE TABLE "followed_tags" (
	"user_id" bigint NOT NULL,
	"tag" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "followed_tags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "followed_tags_user_id_tag_pk" PRIMARY KEY("user_id","tag")
);
--> statement-breakpoint
ALTER TABLE "followed_tags" ADD CONSTRAINT "followed_tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "followed_tags_user_created_idx" ON "followed_tags" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "followed_tags_tag_idx" ON "followed_tags" USING btree ("tag","user_id");