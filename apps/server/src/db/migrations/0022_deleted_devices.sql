CREATE TABLE "deleted_devices" (
	"gateway_id" integer NOT NULL,
	"sn" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deleted_devices_gateway_id_sn_pk" PRIMARY KEY("gateway_id","sn")
);
--> statement-breakpoint
ALTER TABLE "deleted_devices" ADD CONSTRAINT "deleted_devices_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;