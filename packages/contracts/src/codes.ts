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
  // Accounts: two-factor sign-in (issue 7), 112-114: Sunward's, documented in docs/decisions.md.
  /** Sunward: the password was right; send the authenticator code with the challenge in data (grant_type=second_factor). */
  SECOND_FACTOR_REQUIRED: 112,
  /** Sunward: the two-factor sign-in step is unknown, expired or used; enter the password again. */
  SECOND_FACTOR_EXPIRED: 113,
  /** Sunward: the user's company requires two-factor sign-in, so it cannot be turned off. */
  TWO_FACTOR_REQUIRED_BY_COMPANY: 114,
  /** Sunward: the company requires two-factor sign-in; set it up in personal settings before anything else. */
  TWO_FACTOR_SETUP_REQUIRED: 115,
  /** Sunward: too many wrong attempts at this password, code or gateway key (or from this address); retry after the minutes given (data.retryAt). */
  TOO_MANY_ATTEMPTS: 135,
  // Start-up and operation (issue 17), 150-159: Sunward's, documented in docs/decisions.md.
  /** Sunward: the server has bound its port but is still opening its database; retry after Retry-After seconds (HTTP 503). */
  SERVER_STARTING: 150,
  // Observability and backups (issue 17), 170-179: Sunward's, documented in docs/decisions.md.
  /** Sunward: the readiness probe failed: the server is shutting down, or its database or broker does not answer (HTTP 503). */
  SERVER_NOT_READY: 170,
  // Third-party sign-in (OpenID Connect), 120-127: Sunward's, documented in docs/decisions.md.
  /** Sunward: no sign-in provider with this id is configured. */
  THIRD_PARTY_PROVIDER_UNKNOWN: 120,
  /** Sunward: the third-party sign-in attempt is unknown, expired, already used or from another browser. */
  THIRD_PARTY_STATE_INVALID: 121,
  /** Sunward: the provider could not be reached, or refused to exchange the code. */
  THIRD_PARTY_PROVIDER_FAILED: 122,
  /** Sunward: the provider's ID token failed verification (signature, issuer, audience, expiry or nonce). */
  THIRD_PARTY_TOKEN_INVALID: 123,
  /** Sunward: the binding ticket is unknown, expired or already used. */
  THIRD_PARTY_TICKET_INVALID: 124,
  /** Sunward: this third-party identity is already bound to another account. */
  THIRD_PARTY_BOUND_ELSEWHERE: 125,
  /** Sunward: the account already has an identity of this provider bound; unbind it first. */
  THIRD_PARTY_ALREADY_BOUND: 126,
  /** Sunward: the account has no identity of this provider to unbind. */
  THIRD_PARTY_NOT_BOUND: 127,
  AGENT_EXISTS: 202,
  COMPANY_NAME_DUPLICATE: 203,
  // Company and customers (issue 7): spec 02 §8 names these refusals without numbers.
  /** Sunward: the account is already a customer of this company. */
  CUSTOMER_EXISTS: 204,
  /** Sunward: a customer type with subtypes cannot be deleted. */
  CUSTOMER_TYPE_HAS_SUBTYPES: 205,
  /** Sunward: a label with the same name already exists under the same primary label (or among primaries). */
  CUSTOMER_TYPE_NAME_EXISTS: 206,
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
  /** Sunward (spec 02 §8 "battery slave cannot be upgraded", number not shown): upgrade the master instead. */
  BATTERY_SLAVE: 605,
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
  // Invitations (issue 15.4; docs/decisions.md "Invitations"), 210-219.
  /** Sunward: an invitation of this kind from this company to this account is already open. */
  INVITATION_PENDING: 210,
  /** Sunward: the invitation is not open to the caller: answered, withdrawn, expired, or not theirs. */
  INVITATION_CLOSED: 211,
  FIRMWARE_NAME_DUPLICATE: 4000,
  FIRMWARE_ALREADY_LATEST: 4001,
  /** Sunward: the image's hardware version or compatible software range does not match the device. */
  FIRMWARE_INCOMPATIBLE: 4010,
  FIRMWARE_VERSION_DUPLICATE: 4002,
  // Battery firmware library (Sunward; docs/decisions.md "Battery firmware library").
  /** Sunward: a battery type with subtypes cannot be deleted (or moved under another type). */
  BATTERY_TYPE_HAS_SUBTYPES: 4003,
  /** Sunward: a battery type of this name already exists at that place (among primaries, or under the primary). */
  BATTERY_TYPE_NAME_EXISTS: 4004,
  /** Sunward: the type picked as the parent is not a primary type ("select a primary title"). */
  BATTERY_TYPE_NOT_PRIMARY: 4005,
  /** Sunward: the battery type is used by battery products or firmware and cannot be deleted. */
  BATTERY_TYPE_IN_USE: 4006,
  /** Sunward: a battery product of this name already exists. */
  BATTERY_PRODUCT_NAME_EXISTS: 4007,
  /** Sunward: the battery product is used by battery firmware and cannot be deleted. */
  BATTERY_PRODUCT_IN_USE: 4008,
  DICTIONARY_CODE_EXISTS: 5000,
  // Dictionary and OEM projects (issue 24), 5001-5019: spec 02 §8 names the OEM refusals without numbers.
  /** Sunward: plant types drive behaviour (storage or not), so the dictionary cannot add one; names and order can change. */
  DICT_TYPE_FIXED: 5001,
  /** Spec 02 §8 "domain exists": another OEM project has this second-level domain. */
  OEM_DOMAIN_EXISTS: 5002,
  /** Spec 02 §8 "domain format error": at most 10 lowercase letters and digits. */
  OEM_DOMAIN_FORMAT: 5003,
  /** Spec 02 §8 "APK or version exists": this OEM already has this version, or this very file. */
  OEM_APK_EXISTS: 5004,
  /** Spec 02 §8 "OEM change less than 30 days since the last one"; data.nextChange says when. */
  OEM_DOMAIN_CHANGE_TOO_SOON: 5005,
  /** Sunward: one OEM project per company. */
  OEM_COMPANY_TAKEN: 5006,
  /** Sunward: on an OEM's domain only accounts of that OEM's company tree sign in. */
  OEM_ACCOUNT_OUTSIDE: 5007,
  // Notices and versions, 4100-4102: Sunward's, documented in docs/decisions.md.
  /** Sunward (spec 02 §5 "version numbers unique"): a system version with this number already exists. */
  SYSTEM_VERSION_EXISTS: 4100,
  /** Sunward (spec 02 §5 "higher than the latest"): a new system version must be above the newest one. */
  SYSTEM_VERSION_NOT_HIGHER: 4101,
  /** Sunward (spec 02 §4 "setting invalid is one-way"): an invalid notice cannot be changed any more. */
  NOTICE_INVALIDATED: 4102,
  // Protocols as data (issue 19), 4200-4219: Sunward's, documented in docs/decisions.md "Protocols as data".
  /** Sunward: another protocol already has this identifier (what gateways send). */
  PROTOCOL_IDENTIFIER_EXISTS: 4200,
  /** Sunward (spec 02 §5 "protocol code unique"): another protocol already has this code. */
  PROTOCOL_CODE_EXISTS: 4201,
  /** Sunward: devices still use the protocol; move them to another protocol first. */
  PROTOCOL_IN_USE: 4202,
  /** Sunward: a protocol shipped with the product cannot be deleted (it can be disabled). */
  PROTOCOL_BUILT_IN: 4203,
  /** Sunward: an import file over 10 MB is refused before it is read. */
  PROTOCOL_IMPORT_TOO_LARGE: 4204,
  /** Sunward: someone saved a newer version since this editor opened; reload and edit again. */
  PROTOCOL_VERSION_STALE: 4205,
  /** Sunward: the file is not a protocol export (or a SunSpec model) this product can read. */
  PROTOCOL_FILE_INVALID: 4206,
  /** Spec 02 §5 "add fails if the configuration version already has a script": one script per protocol and configuration version. */
  PROTOCOL_SCRIPT_EXISTS: 4207,
  /** Sunward: the hardware list already has this manufacturer and model (case-insensitive). */
  HARDWARE_MODEL_EXISTS: 4220,
  // Plant layout (issue 20), 4300-4309: Sunward's, documented in docs/decisions.md "Plant layout".
  /** Sunward: someone saved the layout since this editor opened it; reload (your changes are kept to re-apply). */
  LAYOUT_VERSION_STALE: 4300,
  /** Spec 02 §5 "at most 99 panels": a layout holds at most LIMITS.panelsMax panels. */
  LAYOUT_TOO_MANY_PANELS: 4301,
  /** Spec 02 §5: a panel group holding undeletable panels (bound to a reporting optimizer) cannot be deleted. */
  LAYOUT_GROUP_LOCKED: 4302,
  /** Sunward: the public layout link is unknown or was revoked. */
  LAYOUT_LINK_INVALID: 4303,
  /** Sunward: a panel names a missing group, an optimizer not in the plant or bound twice, or a group an inverter not in it. */
  LAYOUT_REFERENCE_INVALID: 4304,
  // Large-screen display links (issue 20), 4310-4319: Sunward's, documented in docs/decisions.md "Display links".
  /** Sunward: the display link is unknown or was revoked (or its creator no longer sees its plants). */
  DISPLAY_LINK_INVALID: 4310,
  /** Sunward: the display link's expiry has passed. */
  DISPLAY_LINK_EXPIRED: 4311,
  /** Sunward: the caller already holds the most active display links (DISPLAY_LIMITS.linksPerUserMax). */
  DISPLAY_LINK_LIMIT: 4312,
  // The open plant API (issue 25), 4320-4329: Sunward's, documented in docs/open-api.md.
  /** Sunward: the API key is missing, unknown or revoked (or its creator no longer sees its plants); HTTP 401. */
  API_KEY_INVALID: 4320,
  /** Sunward: the API key's expiry has passed; HTTP 401. */
  API_KEY_EXPIRED: 4321,
  /** Sunward: the caller already holds the most active API keys (OPEN_API_LIMITS.keysPerUserMax). */
  API_KEY_LIMIT: 4322,
  /** Sunward: the company already has the most webhooks (OPEN_API_LIMITS.webhooksPerCompanyMax). */
  WEBHOOK_LIMIT: 4323,
  /** Sunward: no such webhook in the caller's company. */
  WEBHOOK_NOT_FOUND: 4324,
  /** Sunward: the webhook URL is, or resolves to, an address that is not public (private, loopback, link-local, unique-local, multicast, unspecified, reserved). */
  WEBHOOK_URL_REFUSED: 4325,
  // Application centre, smart bulbs and smart rules (issue 22 parts 2-4), 4400-4419: Sunward's, documented in
  // docs/decisions.md "Smart home".
  /** Sunward: the app is not enabled for the caller's company (application centre). */
  APP_NOT_ENABLED: 4400,
  /** Sunward: the app cannot be enabled yet (cameras, energy hub). */
  APP_NOT_AVAILABLE: 4401,
  /** Sunward: the bulb bridge is not connected, or its authorisation was cancelled; connect it again. */
  LIGHT_NOT_AUTHORISED: 4402,
  /** Sunward: the bulb bridge refused the authorisation (expired or revoked there); connect it again. */
  LIGHT_TOKEN_REFUSED: 4403,
  /** Sunward: the bulb bridge did not answer. */
  LIGHT_BRIDGE_UNREACHABLE: 4404,
  /** Sunward: the authorisation answer is unknown, used or older than 10 minutes; start again. */
  LIGHT_OAUTH_STATE_INVALID: 4405,
  /** Sunward: no such bulb among the company's. */
  LIGHT_NOT_FOUND: 4406,
  /** Sunward: no such rule among those of the plants the caller sees. */
  SMART_RULE_NOT_FOUND: 4410,
  /** Sunward: the plant already has a rule with this name. */
  SMART_RULE_NAME_EXISTS: 4411,
  /** Spec 02 §5: the same device cannot take a value twice in a rule. */
  SMART_RULE_DEVICE_TWICE: 4412,
  /** Sunward: a rule's action names a bulb or AC switch that is not bound to the rule's plant. */
  SMART_RULE_DEVICE_INVALID: 4413,
  /** Sunward: the account a rule acts for may no longer switch the device (gone, disabled, right or plant lost); save it again. */
  SMART_RULE_ACTOR_INVALID: 4414,
  // Smart AC switches (issue 22 part 1), 4420-4439: Sunward's, documented in docs/decisions.md "AC switches".
  /** Sunward: no such AC switch among those the caller sees. */
  AC_SWITCH_NOT_FOUND: 4420,
  /** Sunward: an AC switch with this SN is already registered. */
  AC_SWITCH_REGISTERED: 4421,
  /** Sunward: the SN and key of the AC switch do not match. */
  AC_SWITCH_KEY_WRONG: 4422,
  /** Sunward: the AC switch is already bound to a plant (unbind it there first). */
  AC_SWITCH_BOUND: 4423,
  /** Sunward: an AC switch bound to a plant cannot be deleted; unbind it from the plant first. */
  AC_SWITCH_IN_PLANT: 4424,
  /** Sunward: a master switch with sub switches cannot be deleted; delete or move its sub switches first. */
  AC_SWITCH_HAS_SUBS: 4425,
  /** Sunward: a sub switch needs a registered master switch the caller reaches, which is not itself a sub switch. */
  AC_SWITCH_MASTER_INVALID: 4426,
  /** Spec 02 §4: the switch was turned off locally, so it can only be turned on locally. */
  AC_SWITCH_OFF_LOCALLY: 4427,
  /** Sunward: no gateway reports the switch yet, so it cannot be switched or set from the console. */
  AC_SWITCH_NOT_REPORTING: 4428,
  /** Sunward: the account is not a customer or member of the switch's company. */
  AC_SWITCH_USER_INVALID: 4429,
  /** Spec 02 §5: a switch limit's open (trip) value must exceed its closed (reclose) value; under-voltage the other way round. */
  AC_SWITCH_LIMIT_PAIR: 4430,
  /** Sunward: a timed task's date and time have already passed in the plant's time zone. */
  AC_SWITCH_TASK_PAST: 4431,
  /** Sunward: another task of the switch already runs at this time on one of these days. */
  AC_SWITCH_TASK_OVERLAP: 4432,
  /** Sunward: no such task of this switch. */
  AC_SWITCH_TASK_NOT_FOUND: 4433,
  /** Sunward: timed tasks follow the plant's time zone, so the switch must be in a plant first. */
  AC_SWITCH_NOT_IN_PLANT: 4434,
  /** Sunward: a switch has at most 20 tasks. */
  AC_SWITCH_TASKS_MAX: 4435,
  /** Sunward (task history): the server was not running at the task's time and came back too late to run it. */
  AC_SWITCH_TASK_MISSED: 4436,
  /** Sunward (task history): the switch did not confirm the command in time. */
  AC_SWITCH_TASK_UNCONFIRMED: 4437,
  /** Sunward: the self-check needs the switch on (closed): there is no circuit to test while it is open. */
  AC_SWITCH_SELFCHECK_OFF: 4438,
  /** Sunward (task history): the switch did not report the self-check's result in time. */
  AC_SWITCH_SELFCHECK_NO_RESULT: 4439,
  // Energy hub (issue 23 parts 4-6), 4630-4679: spec 02 "Energy hub" codes, documented in docs/decisions.md "Energy hub".
  /** Spec 02 (enrollment missing): no such enrollment among the caller's plants'. */
  ENERGY_HUB_ENROLLMENT_NOT_FOUND: 4630,
  /** Spec 02 (device exists or not): no battery with this SN in the plant. */
  ENERGY_HUB_DEVICE_NOT_FOUND: 4631,
  /** Spec 02 (device already used): the battery is already enrolled in another programme or plant. */
  ENERGY_HUB_DEVICE_USED: 4632,
  /** Spec 02 (customer account bound): the plant already has an enrollment that is pending or accepted. */
  ENERGY_HUB_CUSTOMER_BOUND: 4633,
  /** Spec 02 (SN repeated): the same SN twice in one enrollment. */
  ENERGY_HUB_SN_REPEATED: 4634,
  /** Spec 02 (account already bound): the utility account number is already bound in this programme. */
  ENERGY_HUB_ACCOUNT_BOUND: 4635,
  /** Spec 02: the utility account number is lowercase letters, digits, underscore or dash, at most 20. */
  ENERGY_HUB_UTILITY_ACCOUNT_INVALID: 4636,
  /** Spec 02: the source account number is digits only. */
  ENERGY_HUB_SOURCE_ACCOUNT_INVALID: 4637,
  /** Sunward: the enrollment is not in a state that allows this (an event for a site not accepted, a second review). */
  ENERGY_HUB_ENROLLMENT_STATE: 4638,
  /** Sunward: no such event for the caller's enrollments. */
  ENERGY_HUB_EVENT_NOT_FOUND: 4639,
  /** Sunward: the event has completed or was cancelled; it can no longer be answered. */
  ENERGY_HUB_EVENT_STATE: 4640,
  /** Sunward: the battery is at or below the SOC to keep; it does not discharge. */
  ENERGY_HUB_BELOW_SOC_FLOOR: 4641,
  /** Sunward: the device is not a battery (or its model cannot be told to discharge). */
  ENERGY_HUB_NOT_BATTERY: 4642,
  /** Sunward: an event with this id already exists for the enrollment. */
  ENERGY_HUB_EVENT_EXISTS: 4643,
  /** Sunward: the battery has not reported a state of charge yet. */
  ENERGY_HUB_NO_READING: 4644,
  /** Sunward: the VTN did not answer (address, network or TLS). */
  ENERGY_HUB_VTN_UNREACHABLE: 4645,
  /** Sunward: the VTN answered with an error or a payload that is not OpenADR 2.0b. */
  ENERGY_HUB_VTN_REFUSED: 4646,
  /** Sunward: no VTN is set for this enrollment. */
  ENERGY_HUB_VTN_NOT_SET: 4647,
  /** Sunward: the response settings name a battery that is not enrolled. */
  ENERGY_HUB_SETTINGS_DEVICE: 4648,
  // Video surveillance (issue 23 parts 1, 2, 6), 4600-4629: Sunward's, documented in docs/decisions.md "Video".
  /** Sunward: no such video space among the caller's company's. */
  VIDEO_SPACE_NOT_FOUND: 4600,
  /** Spec 02: a company has at most 10 video spaces. */
  VIDEO_SPACES_MAX: 4601,
  /** Spec 02: the customer already has a video space. */
  VIDEO_CUSTOMER_HAS_SPACE: 4602,
  /** Spec 02: a video space holds at most 9 devices. */
  VIDEO_DEVICES_MAX: 4603,
  /** Sunward: no such camera among the caller's company's. */
  VIDEO_DEVICE_NOT_FOUND: 4604,
  /** Sunward: a camera with this SIP ID is already registered on the platform. */
  VIDEO_SIP_ID_EXISTS: 4605,
  /** Spec 02: the video space is deactivated; activate it first. */
  VIDEO_SPACE_INACTIVE: 4606,
  /** Spec 02: the camera is disabled; enable it first. */
  VIDEO_DEVICE_DISABLED: 4607,
  /** Sunward: the camera is not registered (unregistered or inactive), so the platform cannot reach it. */
  VIDEO_DEVICE_OFFLINE: 4608,
  /** Sunward: no such channel on this camera (refresh its channels first). */
  VIDEO_CHANNEL_NOT_FOUND: 4609,
  /** Sunward: no such stream, or it has stopped. */
  VIDEO_STREAM_NOT_FOUND: 4610,
  /** Sunward: the camera did not answer in time. */
  VIDEO_DEVICE_NO_ANSWER: 4611,
  /** Sunward: the camera refused to send the stream (its SIP answer is given). */
  VIDEO_INVITE_REFUSED: 4612,
  /** Spec 02: the video service must be enabled for the company by the platform administrator first. */
  VIDEO_SERVICE_NOT_GRANTED: 4613,
  /** Sunward: the platform's SIP server is switched off (SIP_PORT=off). */
  VIDEO_SIP_OFF: 4614,
  /** Sunward: the customer is not one of the company's customers. */
  VIDEO_CUSTOMER_INVALID: 4615,
  /** Sunward: a video space with cameras cannot be deleted; delete its cameras first. */
  VIDEO_SPACE_HAS_DEVICES: 4616,
  /** Sunward: the media server could not prepare to receive the stream. */
  VIDEO_MEDIA_FAILED: 4617,
  // Download centre and event descriptions (issue 21), 1020-1039: Sunward's, documented in docs/decisions.md.
  /** Sunward: no such file among the caller's download records (another user's or company's file alike). */
  DOWNLOAD_NOT_FOUND: 1020,
  /** Sunward: the file's retention ran out and it was removed; the record stays to say so. */
  DOWNLOAD_EXPIRED: 1021,
  /** Sunward: the file is still being prepared (queued or running). */
  DOWNLOAD_NOT_READY: 1022,
  /** Sunward: preparing the file failed. */
  DOWNLOAD_FAILED: 1023,
  /** Sunward: the caller already has the most background exports under way. */
  EXPORT_JOBS_BUSY: 1024,
  /** Sunward: an event description import whose header row is not the template's. */
  EVENT_IMPORT_COLUMNS: 1025,
  /** Sunward: an event description import with a bad row (row number and problem). */
  EVENT_IMPORT_ROW: 1026,
  /** Sunward: an event description import with no rows. */
  EVENT_IMPORT_EMPTY: 1027,
  // Reports (issue 21), 1000-1019: Sunward's, documented in docs/decisions.md.
  /** Sunward (spec 02 §5): a report selection holds at most 6 parameters. */
  REPORT_TOO_MANY_PARAMETERS: 1000,
  /** Sunward (spec 02 §5): a report selection holds at most 6 units (devices). */
  REPORT_TOO_MANY_UNITS: 1001,
  /** Sunward: a unit of a report configuration is not a device of the plant. */
  REPORT_UNIT_NOT_IN_PLANT: 1002,
  /** Sunward: no such report configuration among the plants the caller may see. */
  REPORT_CONFIG_NOT_FOUND: 1003,
  /** Sunward: the plant already has a report configuration of this name. */
  REPORT_CONFIG_NAME_EXISTS: 1004,
  /** Sunward: no such report schedule among the caller's. */
  REPORT_SCHEDULE_NOT_FOUND: 1005,
  /** Sunward: no such customer of the caller's company. */
  REPORT_CUSTOMER_NOT_FOUND: 1006,
  /** Sunward: the schedule's plant or customer was deleted; it stays disabled with the reason. */
  REPORT_SCHEDULE_TARGET_DELETED: 1007,
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
    case Code.API_KEY_INVALID:
    case Code.API_KEY_EXPIRED:
      return 401;
    case Code.NO_PERMISSION:
      return 403;
    case Code.NOT_FOUND:
      return 404;
    case Code.SIGN_IN_LOCKED:
    case Code.TOO_MANY_ATTEMPTS:
    case Code.RATE_LIMITED:
      return 429;
    case Code.SERVER_ERROR:
      return 500;
    case Code.TIMEOUT:
      return 504;
    case Code.SERVER_STARTING:
    case Code.SERVER_NOT_READY:
      return 503;
    default:
      return 200;
  }
}
