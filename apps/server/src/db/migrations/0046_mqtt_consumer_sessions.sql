CREATE TABLE "mqtt_consumer_sessions" (
	"client_id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"adopted_by" text,
	"adopted_at" timestamp with time zone
);
