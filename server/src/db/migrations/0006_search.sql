CREATE INDEX "post_hashtags_tag_prefix_idx" ON "post_hashtags" USING btree ("tag" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "posts_text_search_idx" ON "posts" USING gin (to_tsvector('simple', "text"));--> statement-breakpoint
CREATE INDEX "users_username_prefix_idx" ON "users" USING btree (lower("username") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops);