CREATE TABLE "job_state" (
	"name" text PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readings_hourly" (
	"device_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	"samples" integer NOT NULL,
	CONSTRAINT "readings_hourly_device_id_hour_pk" PRIMARY KEY("device_id","hour")
);
