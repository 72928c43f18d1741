/**
 * The response-code catalogue: the union of both spec documents' error tables (section 8 of each),
 * plus the codes Sunward adds, each documented in docs/decisions.md. One list for server and client.
 */
export const Code = {
  OK: 0,
  TIMEOUT: 1,
  NO_PERMISSION: 2,
  VALIDATION: 4,
  VERIFICATION_CODE_WRONG: 5,
  VERIFICATION_CODE_EXPIRED: 6,
  COORDINATES_INVALID: 10,
  ACCOUNT_DISABLED: 101,
  WRONG_CREDENTIALS: 102,
  ACCOUNT_REGISTERED: 103,
  ACCOUNT_EXISTS: 104,
  ACCOUNT_NOT_REGISTERED: 105,
  ACCOUNT_HAS_COMPANY: 106,
  OLD_PASSWORD_WRONG: 108,
  /** Sunward: too many failed sign-ins for this account or address; try again later. */
  SIGN_IN_LOCKED: 110,
  /** Sunward: the refresh token is unknown, expired or revoked; sign in again. */
  REFRESH_INVALID: 111,
  AGENT_EXISTS: 202,
  COMPANY_NAME_DUPLICATE: 203,
  ALREADY: 207,
  GATEWAY_REGISTRATION_WRONG: 300,
  GATEWAY_USED: 301,
  GATEWAY_NOT_FOUND: 305,
  /** Sunward: the gateway is not online, so a change applied over the protocol cannot be sent now. */
  GATEWAY_OFFLINE: 306,
  /** Sunward: the gateway did not confirm the change in time; nothing is recorded as changed. */
  GATEWAY_NO_REPLY: 307,
  /** Spec 01 names 400 among the codes checkAccount tolerates without a meaning; Sunward reads it as "account format invalid". */
  ACCOUNT_FORMAT_INVALID: 400,
  TOKEN_INVALID: 401,
  /** Sunward: the called path does not exist (sent with HTTP 404). */
  NOT_FOUND: 404,
  /** Sunward: too many requests from this caller; slow down. */
  RATE_LIMITED: 429,
  /** Sunward: an unexpected server fault; the request changed nothing. */
  SERVER_ERROR: 500,
  INVERTER_NOT_FOUND: 600,
  SETTING_NOT_SUPPORTED: 601,
  /** Sunward: a device of another family (meter, battery, optimizer...) does not exist or is not visible. */
  DEVICE_NOT_FOUND: 602,
  /** Sunward: the device is offline; power it on or check its network, then send the command again. */
  DEVICE_OFFLINE: 603,
  /** Sunward: the device is upgrading and refuses other commands until it has finished. */
  DEVICE_UPGRADING: 604,
  PLANT_NOT_FOUND: 700,
  SHARE_WITH_SELF: 701,
  SHARE_TO_COMPANY_USER: 702,
  SHARE_COMPANY_PLANT: 703,
  /** Sunward: a plant cannot be transferred to its own owner. */
  TRANSFER_TO_SELF: 704,
  /** Sunward: the owner's password given to confirm a transfer is wrong (102 would sign the owner out). */
  OWNER_PASSWORD_WRONG: 705,
  /** Sunward: more records than one download may hold; narrow the range. */
  TOO_MANY_RECORDS: 706,
  /** Sunward: the uploaded file cannot be read or holds no rows; the message names the row. */
  IMPORT_FILE_INVALID: 707,
  /** Sunward: the password entered to confirm a command (shutdown, parameter write, upgrade) is wrong. */
  CONFIRM_PASSWORD_WRONG: 708,
  /** Sunward: the company's cap on devices commanded per minute is reached; wait a minute. */
  COMMAND_CAP_REACHED: 709,
  ROLE_LIMIT: 800,
  ROLE_EXISTS: 801,
  ROLE_OWN_NOT_MODIFIABLE: 802,
  AGENT_SELF: 900,
  AGENT_INTERNAL_EMPLOYEE: 901,
  AGENT_NOT_MANAGER: 902,
  AGENT_ALREADY: 903,
  FIRMWARE_NAME_DUPLICATE: 4000,
  FIRMWARE_ALREADY_LATEST: 4001,
  FIRMWARE_VERSION_DUPLICATE: 4002,
  DICTIONARY_CODE_EXISTS: 5000,
} as const;

export type CodeName = keyof typeof Code;
export type ResponseCode = (typeof Code)[CodeName];

export const ALL_CODES: readonly ResponseCode[] = Object.values(Code);

export function isResponseCode(value: unknown): value is ResponseCode {
  return typeof value === 'number' && (ALL_CODES as readonly number[]).includes(value);
}

/**
 * The HTTP status each code travels with. Business refusals stay 200 so a client reads the envelope;
 * the statuses that clients and proxies act on (401 refresh, 403, 404, 429, 5xx) are kept meaningful.
 */
export function httpStatusForCode(code: ResponseCode): number {
  switch (code) {
    case Code.OK:
      return 200;
    case Code.VALIDATION:
    case Code.COORDINATES_INVALID:
      return 400;
    case Code.TOKEN_INVALID:
      return 401;
    case Code.NO_PERMISSION:
      return 403;
    case Code.NOT_FOUND:
      return 404;
    case Code.SIGN_IN_LOCKED:
    case Code.RATE_LIMITED:
      return 429;
    case Code.SERVER_ERROR:
      return 500;
    case Code.TIMEOUT:
      return 504;
    default:
      return 200;
  }
}
