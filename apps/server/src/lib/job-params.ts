import { isPermissionKey } from '@sunward/contracts/permissions';
import type { AuthContext } from '../plugins/auth.js';

/*
 * A background job that may run again after a restart (files.service.ts registerJob) keeps its parameters
 * as JSON, with who asked for it: the caller's identity and rights as they were when they asked (as batch
 * tasks do), so the file holds what the user could see then. A deleted user's records go with them.
 */

/** JSON a job's parameters are made of. */
export type JobParams = string | number | boolean | null | readonly JobParams[] | { readonly [key: string]: JobParams | undefined };

/** The parts of an AuthContext a job needs, as plain JSON. */
export type AuthSnapshot = {
  userId: number;
  account: string;
  roleId: number;
  roleKey: string;
  companyId: number | null;
  readOnly: boolean;
  permissions: string[];
};

export function authSnapshot(auth: AuthContext): AuthSnapshot {
  return {
    userId: auth.userId,
    account: auth.account,
    roleId: auth.roleId,
    roleKey: auth.roleKey,
    companyId: auth.companyId,
    readOnly: auth.readOnly,
    permissions: [...auth.permissions],
  };
}

export function authFromSnapshot(snapshot: AuthSnapshot, jobId: string): AuthContext {
  return {
    userId: snapshot.userId,
    sessionId: `job-${jobId}`,
    account: snapshot.account,
    roleId: snapshot.roleId,
    roleKey: snapshot.roleKey,
    companyId: snapshot.companyId,
    readOnly: snapshot.readOnly,
    permissions: new Set(snapshot.permissions.filter(isPermissionKey)),
    ip: '',
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Reads a stored snapshot back; throws on anything else (a record from an older shape is then failed). */
export function parseAuthSnapshot(raw: unknown): AuthSnapshot {
  if (
    !isRecord(raw) ||
    typeof raw.userId !== 'number' ||
    typeof raw.account !== 'string' ||
    typeof raw.roleId !== 'number' ||
    typeof raw.roleKey !== 'string' ||
    !(typeof raw.companyId === 'number' || raw.companyId === null) ||
    typeof raw.readOnly !== 'boolean' ||
    !Array.isArray(raw.permissions)
  )
    throw new Error('not a stored caller');
  return {
    userId: raw.userId,
    account: raw.account,
    roleId: raw.roleId,
    roleKey: raw.roleKey,
    companyId: raw.companyId,
    readOnly: raw.readOnly,
    permissions: raw.permissions.filter((p): p is string => typeof p === 'string'),
  };
}

/**
 * The parameters of a caller's export: who asked, when (relative periods stay those of that moment), and
 * the request as the route received it (its schema parses it again when the job is made).
 */
export type CallerJob = { auth: AuthSnapshot; at: number; query: JobParams };

export function callerJob(auth: AuthContext, query: JobParams, at = Date.now()): CallerJob {
  return { auth: authSnapshot(auth), at, query };
}

/** Reads stored caller-job parameters back; throws on another shape. */
export function parseCallerJob(raw: unknown): CallerJob {
  if (!isRecord(raw) || typeof raw.at !== 'number' || !isRecord(raw.query)) throw new Error('not stored job parameters');
  return { auth: parseAuthSnapshot(raw.auth), at: raw.at, query: raw.query as JobParams };
}
