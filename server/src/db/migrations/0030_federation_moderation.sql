CREATE TABLE "domain_blocks" (
	"domain" text PRIMARY KEY NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "remote_actors" ADD COLUMN "avatar_source" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "forwarded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domain_blocks" ADD CONSTRAINT "domain_blocks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" IN ('post.removed', 'account.suspended', 'account.restored', 'report.dismissed', 'role.changed', 'domain.blocked', 'domain.unblocked'));