CREATE TABLE "list_members" (
	"list_id" bigint NOT NULL,
	"owner_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_members_list_id_user_id_pk" PRIMARY KEY("list_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lists" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lists_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"title" text NOT NULL,
	"replies_policy" text DEFAULT 'list' NOT NULL,
	"exclusive" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lists_owner_id_key" UNIQUE("owner_id","id"),
	CONSTRAINT "lists_replies_policy_check" CHECK ("lists"."replies_policy" IN ('followed', 'list', 'none'))
);
--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_owner_id_list_id_lists_owner_id_id_fk" FOREIGN KEY ("owner_id","list_id") REFERENCES "public"."lists"("owner_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_members" ADD CONSTRAINT "list_members_owner_id_user_id_follows_follower_id_followee_id_fk" FOREIGN KEY ("owner_id","user_id") REFERENCES "public"."follows"("follower_id","followee_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lists" ADD CONSTRAINT "lists_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_members_owner_user_idx" ON "list_members" USING btree ("owner_id","user_id");--> statement-breakpoint
CREATE INDEX "list_members_user_idx" ON "list_members" USING btree ("user_id");