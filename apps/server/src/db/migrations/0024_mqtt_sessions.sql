CREATE TABLE "mqtt_outgoing" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mqtt_outgoing_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"client_id" text NOT NULL,
	"broker_id" text NOT NULL,
	"broker_counter" bigint NOT NULL,
	"topic" text NOT NULL,
	"payload" text NOT NULL,
	"qos" smallint NOT NULL,
	"message_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mqtt_subscriptions" (
	"client_id" text NOT NULL,
	"topic" text NOT NULL,
	"qos" smallint NOT NULL,
	CONSTRAINT "mqtt_subscriptions_client_id_topic_pk" PRIMARY KEY("client_id","topic")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mqtt_outgoing_packet" ON "mqtt_outgoing" USING btree ("client_id","broker_id","broker_counter");