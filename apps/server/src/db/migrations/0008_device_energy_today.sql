ALTER TABLE "device_realtime" ADD COLUMN "energy_day" date;--> statement-breakpoint
ALTER TABLE "device_realtime" ADD COLUMN "energy_today_wh" double precision;