CREATE TABLE "actor_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "actor_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"key_type" text NOT NULL,
	"public_key" jsonb NOT NULL,
	"private_key" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "actor_keys_user_type" UNIQUE NULLS NOT DISTINCT("user_id","key_type"),
	CONSTRAINT "actor_keys_type_check" CHECK ("actor_keys"."key_type" IN ('RSASSA-PKCS1-v1_5', 'Ed25519'))
);
--> statement-breakpoint
CREATE TABLE "fed_kv" (
	"key" text[] PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fed_queue" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fed_queue_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"message" jsonb NOT NULL,
	"ordering_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "remote_actors" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"uri" text NOT NULL,
	"type" text NOT NULL,
	"inbox" text NOT NULL,
	"shared_inbox" text,
	"url" text,
	"followers_url" text,
	"public_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remote_actors_uri_unique" UNIQUE("uri")
);
--> statement-breakpoint
DROP INDEX "users_username_lower_key";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "domain" text;--> statement-breakpoint
ALTER TABLE "actor_keys" ADD CONSTRAINT "actor_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "remote_actors" ADD CONSTRAINT "remote_actors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fed_kv_expires_at_idx" ON "fed_kv" USING btree ("expires_at") WHERE "fed_kv"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "fed_queue_due_idx" ON "fed_queue" USING btree ("queue","run_at","id");--> statement-breakpoint
CREATE INDEX "fed_queue_ordering_idx" ON "fed_queue" USING btree ("queue","ordering_key","id") WHERE "fed_queue"."ordering_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "remote_actors_shared_inbox_idx" ON "remote_actors" USING btree ("shared_inbox") WHERE "remote_actors"."shared_inbox" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_remote_username_key" ON "users" USING btree ("domain",lower("username")) WHERE "users"."domain" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_key" ON "users" USING btree (lower("username")) WHERE "users"."domain" IS NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_local_whole" CHECK (("users"."domain" IS NULL) = ("users"."email" IS NOT NULL AND "users"."password_hash" IS NOT NULL));