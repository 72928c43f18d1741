-- device_realtime and device_energy_daily are rewritten on every report. Free space in each page lets
-- PostgreSQL update rows in place (HOT: no index column changes), sparing index churn and vacuum work.
ALTER TABLE "device_realtime" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "device_energy_daily" SET (fillfactor = 70);
