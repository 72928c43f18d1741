import { z } from 'zod';

/**
 * What an external broker sends the server to check a gateway (the mosquitto-go-auth HTTP backend protocol,
 * JSON or form parameters; docs/mosquitto.md). The answer is the HTTP status alone: 200 allowed, 403 refused.
 */
export const MqttAuthUserBodySchema = z.object({
  username: z.string().max(256),
  password: z.string().max(256),
  clientid: z.string().max(256).default(''),
});

export const MqttAuthSuperuserBodySchema = z.object({ username: z.string().max(256) });

/** acc: 1 read (a message delivered), 2 write (publish), 4 subscribe. */
export const MqttAuthAclBodySchema = z.object({
  username: z.string().max(256),
  clientid: z.string().max(256).default(''),
  topic: z.string().max(1024),
  acc: z.coerce.number().int(),
});

export type MqttAuthUserBody = z.infer<typeof MqttAuthUserBodySchema>;
export type MqttAuthAclBody = z.infer<typeof MqttAuthAclBodySchema>;
