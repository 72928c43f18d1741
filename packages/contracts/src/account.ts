import { z } from 'zod';
import { LANGUAGES } from './languages.js';
import { LIMITS } from './limits.js';

/**
 * Accounts (issue 7): registration and password reset with a verification code, personal settings and
 * two-factor sign-in. Shapes of the /anonymous account calls and of /api/v1/user/*; limits both sides use.
 */
export const ACCOUNT_LIMITS = {
  /** A verification code is six digits and lives ten minutes. */
  codeLength: 6,
  codeTtlSeconds: 600,
  /** A new code for the same address is sent at most once a minute. */
  codeResendSeconds: 60,
  /** Wrong entries of one code before it is void (the next check answers 6, "request a new one"). */
  codeMaxAttempts: 5,
  /** Codes sent to one address per hour, and asked for from one client address per hour. */
  codesPerAddressPerHour: 5,
  codesPerIpPerHour: 20,
  /** checkAccount answers whether an account exists: at most this many per client address per minute and per hour. */
  checkAccountPerIpPerMinute: 10,
  checkAccountPerIpPerHour: 60,
  /** Avatar: JPG or PNG by content, at most 6 MB (spec 02 §5). */
  avatarMaxBytes: 6 * 1024 * 1024,
  /** One-time recovery codes issued when two-factor sign-in is turned on. */
  recoveryCodes: 10,
  /** How long the second step of a two-factor sign-in may wait after the password. */
  challengeTtlSeconds: 300,
} as const;

/** Why a code is asked for: registration, password reset, or binding a new e-mail/phone to one's profile. */
export const CODE_PURPOSES = ['register', 'reset', 'bind'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

const AccountField = z.string().trim().min(1).max(LIMITS.accountMaxLength);
const CodeField = z.string().trim().min(1).max(12);
const PasswordField = z.string().min(1).max(LIMITS.passwordMaxLength);
/** Form bodies send booleans as text. */
const FormBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on']).transform((v) => v !== 'false' && v !== '0')]);

/** GET /anonymous/getCode: `type` register (the default) or reset. */
export const GetCodeQuerySchema = z.object({
  account: AccountField,
  type: z.enum(['register', 'reset']).default('register'),
  lan: z.string().max(10).optional(),
});

/** Where the code went (masked) and when another may be asked for. The same answer whether or not one was sent. */
export const CodeSentSchema = z.object({
  channel: z.enum(['email', 'sms']),
  expiresIn: z.number().int(),
  resendAfter: z.number().int(),
});
export type CodeSent = z.infer<typeof CodeSentSchema>;

/** GET /anonymous/checkCode: codes 5 (wrong) and 6 (expired, used up or never sent). Does not use the code up. */
export const CheckCodeQuerySchema = z.object({
  account: AccountField,
  code: CodeField,
  type: z.enum(CODE_PURPOSES).default('register'),
});

/** GET /anonymous/checkAccount: 400 not an e-mail or mobile number; register: 103 taken; reset: 105 unknown. */
export const CheckAccountQuerySchema = z.object({
  account: AccountField,
  type: z.enum(['register', 'reset']).default('register'),
});

/** POST /anonymous/signup. The agreement must be ticked; the password follows PASSWORD_POLICY. */
export const SignupBodySchema = z.object({
  account: AccountField,
  code: CodeField,
  password: PasswordField,
  nickname: z.string().trim().max(LIMITS.nicknameMaxLength).optional(),
  agree: FormBoolean,
  lan: z.string().max(10).optional(),
});
export type SignupBody = z.infer<typeof SignupBodySchema>;

export const SignupResultSchema = z.object({ account: z.string() });

/** POST /anonymous/resetPwd: a new password with the code sent to the account's address. */
export const ResetPasswordBodySchema = z.object({ account: AccountField, code: CodeField, password: PasswordField });

/** GET /anonymous/sendBindCode: a code to the new e-mail or phone a user binds to their profile. */
export const SendBindCodeQuerySchema = z.object({ account: AccountField, lan: z.string().max(10).optional() });

/** What GET /anonymous/passwordPolicy answers: the rule the server applies, so forms show the same. */
export const PasswordPolicySchema = z.object({ rule: z.enum(['strict', 'lenient']) });

/** Personalized settings (GET and POST /api/v1/user/personalized). */
export const HOME_PAGES = ['/plants', '/device/gateway/list', '/device/event', '/edit'] as const;
export const PersonalizedSchema = z.object({
  language: z.enum(LANGUAGES),
  /** Spec 01 §3 local state "styleType": the console's look. */
  styleType: z.enum(['light', 'dark']),
  /** The page `/` opens after sign-in. */
  homePage: z.enum(HOME_PAGES),
  /** Rows per page in lists. */
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(50), z.literal(100)]),
});
export type Personalized = z.infer<typeof PersonalizedSchema>;
export const DEFAULT_PERSONALIZED: Personalized = { language: 'en', styleType: 'light', homePage: '/plants', pageSize: 20 };
export const PersonalizedUpdateSchema = PersonalizedSchema.partial();

/** GET /api/v1/user/accountInfo: the account as personal settings shows it. */
export const AccountInfoSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.string(),
  company: z.object({ id: z.number().int(), name: z.string(), requireTwoFactor: z.boolean() }).nullable(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  lastSignInIp: z.string().nullable(),
  activeSessions: z.number().int(),
  twoFactor: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int(), requiredByCompany: z.boolean() }),
  passwordRule: z.enum(['strict', 'lenient']),
});
export type AccountInfo = z.infer<typeof AccountInfoSchema>;

/**
 * POST /api/v1/user/{userId}: profile. A changed e-mail or phone needs the code sendBindCode sent to it;
 * an empty string removes it. Avatar: a URL from POST /api/v1/user/avatar, or null to remove.
 */
export const ProfileUpdateSchema = z.object({
  nickname: z.string().trim().min(1).max(LIMITS.nicknameMaxLength).optional(),
  avatar: z
    .string()
    .regex(/^\/api\/v1\/files\/avatars\/[a-f0-9]{32}\.(jpg|png)$/)
    .nullable()
    .optional(),
  email: z.string().trim().max(LIMITS.accountMaxLength).optional(),
  emailCode: CodeField.optional(),
  phone: z.string().trim().max(16).optional(),
  phoneCode: CodeField.optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** POST /api/v1/user/{userId}/pwd: 108 when the old password is wrong; other sessions are signed out. */
export const PasswordChangeSchema = z.object({ oldPassword: PasswordField, password: PasswordField });
export const PasswordChangedSchema = z.object({ otherSessionsSignedOut: z.number().int() });

export const AvatarUploadedSchema = z.object({ url: z.string() });

/** Two-factor sign-in (TOTP, RFC 6238) set-up: the secret for manual entry and the otpauth:// URI for the QR code. */
export const TwoFactorSetupSchema = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;
export const TwoFactorEnableSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});
export const TwoFactorPasswordSchema = z.object({ password: PasswordField });
/** Shown once: only their hashes are kept. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** The data of code 112 (second factor required) from POST /oauth/token. */
export const SecondFactorChallengeSchema = z.object({ challenge: z.string(), expiresIn: z.number().int() });
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallengeSchema>;
