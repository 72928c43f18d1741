CREATE TABLE "readings_5m" (
	"device_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"values" real[] NOT NULL,
	"samples" integer NOT NULL,
	CONSTRAINT "readings_5m_device_id_bucket_pk" PRIMARY KEY("device_id","bucket")
);
