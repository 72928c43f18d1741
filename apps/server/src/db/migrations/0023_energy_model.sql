ALTER TABLE "readings" ALTER COLUMN "values" SET DATA TYPE double precision[];--> statement-breakpoint
ALTER TABLE "readings_5m" ALTER COLUMN "values" SET DATA TYPE double precision[];--> statement-breakpoint
ALTER TABLE "readings_hourly" ALTER COLUMN "values" SET DATA TYPE double precision[];--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "first_ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "first_wh" double precision;--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "last_ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "last_wh" double precision;--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "energy_wh" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "device_energy_daily" ADD COLUMN "drop_wh" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "device_energy_daily_drops" ON "device_energy_daily" USING btree ("device_id") WHERE "device_energy_daily"."drop_wh" > 0;--> statement-breakpoint
-- Days stored before the energy model keep the figures they showed: the old counter rule (highest minus the
-- previous day's highest, or the day's own span after a reset), with a reset's fall as the day's drop.
UPDATE "device_energy_daily" e SET "first_wh" = e."counter_min_wh", "last_wh" = e."counter_max_wh",
  "energy_wh" = greatest(0, CASE WHEN p.prev IS NULL OR p.prev > e."counter_max_wh" THEN e."counter_max_wh" - e."counter_min_wh" ELSE e."counter_max_wh" - p.prev END),
  "drop_wh" = CASE WHEN p.prev > e."counter_max_wh" THEN greatest(0, p.prev - e."counter_min_wh") ELSE 0 END
FROM (SELECT "device_id", "day", lag("counter_max_wh") OVER (PARTITION BY "device_id" ORDER BY "day") AS prev
      FROM "device_energy_daily" WHERE "counter_max_wh" IS NOT NULL) p
WHERE p."device_id" = e."device_id" AND p."day" = e."day";--> statement-breakpoint
-- The time of each device's last counter reading, where the realtime row holds it; a day without one is
-- recomputed from raw readings by the next reading.
UPDATE "device_energy_daily" e SET "last_ts" = r."ts" FROM "device_realtime" r
WHERE r."device_id" = e."device_id" AND e."last_wh" = r."energy_total_wh"
  AND e."day" = (SELECT max(x."day") FROM "device_energy_daily" x WHERE x."device_id" = e."device_id" AND x."last_wh" IS NOT NULL);
