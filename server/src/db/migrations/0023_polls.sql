CREATE TABLE "poll_options" (
	"post_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"votes_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "poll_options_post_id_position_pk" PRIMARY KEY("post_id","position"),
	CONSTRAINT "poll_options_votes_nonnegative" CHECK ("poll_options"."votes_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "poll_votes" (
	"post_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "poll_votes_post_id_user_id_position_pk" PRIMARY KEY("post_id","user_id","position")
);
--> statement-breakpoint
CREATE TABLE "polls" (
	"post_id" bigint PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"multiple" boolean DEFAULT false NOT NULL,
	"hide_totals" boolean DEFAULT false NOT NULL,
	"voters_count" integer DEFAULT 0 NOT NULL,
	"votes_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "polls_counts_nonnegative" CHECK ("polls"."voters_count" >= 0 AND "polls"."votes_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type_check";--> statement-breakpoint
ALTER TABLE "poll_options" ADD CONSTRAINT "poll_options_post_id_polls_post_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."polls"("post_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_post_id_polls_post_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."polls"("post_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "poll_votes" ADD CONSTRAINT "poll_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "polls" ADD CONSTRAINT "polls_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "poll_votes_user_idx" ON "poll_votes" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type_check" CHECK ("notifications"."type" IN ('like', 'reply', 'follow', 'mention', 'quote', 'repost', 'follow_request', 'poll'));