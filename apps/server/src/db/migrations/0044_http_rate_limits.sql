CREATE TABLE "http_rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "http_rate_limits_resets_at" ON "http_rate_limits" USING btree ("resets_at");--> statement-breakpoint
-- Counters are worth losing in a crash (a window starts afresh) and written on every request: no WAL, no fsync.
ALTER TABLE "http_rate_limits" SET UNLOGGED;