import { ACCOUNT_LIMITS, type CodePurpose, type CodeSent } from '@sunward/contracts/account';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, type MessageParams, translate } from '@sunward/contracts/messages';
import { isCommonPassword } from '@sunward/contracts/password-policy';
import { accountKind, isEmail, isPhone, passwordProblem, type RegistrationPasswordRule } from '@sunward/contracts/validators';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import type { Mailer } from '../../lib/mailer.js';
import { hashPassword } from '../auth/password.js';
import { lockedError, type SecretThrottle } from '../auth/secret-throttle.js';
import type { AccountRepository } from './account.repository.js';
import type { SmsSender } from './sms-sender.js';
import { hashVerificationCode, judgeCode, newVerificationCode, normalizeAddress } from './verification-codes.js';

/** A code-4 refusal naming the field, in the caller's language, for the form to show beside it. */
export function fieldError(language: Language, field: string, key: MessageKey, params?: MessageParams): ApiError {
  return new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key, params) }] });
}

/** The one check of a new password on the server: the rule of PASSWORD_POLICY and the common-password list. */
export function assertNewPassword(password: string, rule: RegistrationPasswordRule, language: Language, field = 'password'): void {
  const problem = passwordProblem(password, rule, isCommonPassword);
  if (problem === 'spaces') throw fieldError(language, field, 'account.passwordSpaces');
  if (problem === 'rule') throw fieldError(language, field, rule === 'strict' ? 'account.passwordStrict' : 'account.passwordLenient');
  if (problem === 'common') throw fieldError(language, field, 'account.passwordCommon');
}

export interface AccountDeps {
  repository: AccountRepository;
  mailer: Mailer;
  sms: SmsSender;
  passwordRule: RegistrationPasswordRule;
  /** Counts wrong codes per address and caller (135 once locked); a reset password clears the account's sign-in failures. */
  throttle: SecretThrottle;
  log: FastifyBaseLogger;
  now?: () => Date;
}

const MAIL_TEXT: Record<CodePurpose, MessageKey> = {
  register: 'account.mailRegister',
  reset: 'account.mailReset',
  bind: 'account.mailBind',
};

/**
 * Registration and password reset with verification codes (spec 01 §7 anonymous calls). Nothing here
 * tells an anonymous caller more about existing accounts than checkAccount must (spec: 103, 105), and
 * checkAccount is rate-limited per client address.
 */
export function createAccountService(deps: AccountDeps) {
  const { repository, mailer, sms, passwordRule, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function throttle(key: string, limit: number, windowSeconds: number): Promise<void> {
    if ((await repository.hit(key, windowSeconds, now())) > limit) throw new ApiError(Code.RATE_LIMITED);
  }

  /** Limits per client address and per destination address, checked before anything is sent. */
  async function checkSendLimits(address: string, purpose: CodePurpose, ip: string): Promise<void> {
    const at = now();
    const hourAgo = new Date(at.getTime() - 3600_000);
    const last = await repository.latestCodeSentAt(address, purpose);
    if (last && at.getTime() - last.getTime() < ACCOUNT_LIMITS.codeResendSeconds * 1000) throw new ApiError(Code.RATE_LIMITED);
    if ((await repository.countCodesSince({ address }, hourAgo)) >= ACCOUNT_LIMITS.codesPerAddressPerHour)
      throw new ApiError(Code.RATE_LIMITED);
    if ((await repository.countCodesSince({ ip }, hourAgo)) >= ACCOUNT_LIMITS.codesPerIpPerHour) throw new ApiError(Code.RATE_LIMITED);
  }

  /**
   * Sends a code, or for an address that must not get one (registering a taken address, resetting an
   * unknown one) stores a code nobody receives: the answer, its timing and the limits are the same.
   */
  async function sendCode(input: {
    address: string;
    channel: 'email' | 'sms';
    purpose: CodePurpose;
    ip: string;
    language: Language;
    deliver: 'code' | 'alreadyRegistered' | 'nothing';
  }): Promise<CodeSent> {
    await checkSendLimits(input.address, input.purpose, input.ip);
    const code = newVerificationCode();
    const minutes = ACCOUNT_LIMITS.codeTtlSeconds / 60;
    const at = now();
    try {
      if (input.deliver === 'code') {
        const text = translate(input.language, MAIL_TEXT[input.purpose], { code, minutes });
        if (input.channel === 'email')
          await mailer.send({ to: input.address, subject: translate(input.language, 'account.mailSubject', { code }), text });
        else await sms.send({ to: input.address, text });
      } else if (input.deliver === 'alreadyRegistered' && input.channel === 'email') {
        await mailer.send({
          to: input.address,
          subject: translate(input.language, 'account.mailRegisteredSubject'),
          text: translate(input.language, 'account.mailRegistered'),
        });
      }
    } catch (error) {
      log.error({ err: error, event: 'verification_code', outcome: 'send_failed', channel: input.channel }, 'verification code not sent');
      throw new ApiError(Code.SERVER_ERROR);
    }
    await repository.storeCode({
      purpose: input.purpose,
      address: input.address,
      codeHash: hashVerificationCode(input.purpose, input.address, code),
      ip: input.ip,
      expiresAt: new Date(at.getTime() + ACCOUNT_LIMITS.codeTtlSeconds * 1000),
      now: at,
    });
    log.info({ event: 'verification_code', purpose: input.purpose, channel: input.channel, ip: input.ip }, 'verification code issued');
    return { channel: input.channel, expiresIn: ACCOUNT_LIMITS.codeTtlSeconds, resendAfter: ACCOUNT_LIMITS.codeResendSeconds };
  }

  /**
   * Checks an entered code: 5 wrong (counted: five void it), 6 expired, used or never sent. Every entry
   * that is not right also counts in the secret throttle for the address and the caller: 135 once locked.
   */
  async function verifyCode(address: string, purpose: CodePurpose, code: string, consume: boolean, ip: string): Promise<void> {
    let active = undefined as Awaited<ReturnType<AccountRepository['activeCode']>>;
    let verdict = 'expired' as ReturnType<typeof judgeCode>;
    const checked = await deps.throttle.check({ kind: 'code', subject: address, ip }, async () => {
      active = await repository.activeCode(address, purpose);
      verdict = judgeCode(active, hashVerificationCode(purpose, address, code.trim()), now());
      return verdict === 'ok';
    });
    if (checked.outcome === 'locked') throw lockedError(checked);
    if (verdict === 'expired' || !active) throw new ApiError(Code.VERIFICATION_CODE_EXPIRED);
    if (verdict === 'wrong') {
      await repository.countWrongEntry(active.id);
      throw new ApiError(Code.VERIFICATION_CODE_WRONG);
    }
    if (consume && !(await repository.consumeCode(active.id, now()))) throw new ApiError(Code.VERIFICATION_CODE_EXPIRED);
  }

  function registrationAddress(account: string): { address: string; kind: 'email' | 'phone' } | undefined {
    const address = normalizeAddress(account);
    const kind = accountKind(address);
    return kind ? { address, kind } : undefined;
  }

  return {
    passwordRule,
    verifyCode,

    /** GET /anonymous/getCode: registration or reset code to an e-mail (or by SMS to a phone account). */
    async getCode(input: { account: string; type: 'register' | 'reset'; ip: string; language: Language }): Promise<CodeSent> {
      const target = registrationAddress(input.account);
      if (!target) throw new ApiError(Code.ACCOUNT_FORMAT_INVALID);
      const channel = target.kind === 'email' ? 'email' : 'sms';
      let deliver: 'code' | 'alreadyRegistered' | 'nothing';
      if (input.type === 'register') deliver = (await repository.addressTaken(target.address)) ? 'alreadyRegistered' : 'code';
      else deliver = (await repository.findByAccount(target.address)) ? 'code' : 'nothing';
      return sendCode({ address: target.address, channel, purpose: input.type, ip: input.ip, language: input.language, deliver });
    },

    /** GET /anonymous/sendBindCode: a code to an e-mail or phone number the signed-in user adds to the profile. */
    async sendBindCode(input: { account: string; ip: string; language: Language }): Promise<CodeSent> {
      const address = normalizeAddress(input.account);
      const channel = isEmail(address) ? 'email' : isPhone(address) && /^\+?\d{6,15}$/.test(address) ? 'sms' : undefined;
      if (!channel) throw new ApiError(Code.ACCOUNT_FORMAT_INVALID);
      const deliver = (await repository.addressTaken(address)) ? 'nothing' : 'code';
      return sendCode({ address, channel, purpose: 'bind', ip: input.ip, language: input.language, deliver });
    },

    /** GET /anonymous/checkCode: whether a code is right, without using it up. */
    async checkCode(input: { account: string; code: string; type: CodePurpose; ip: string }): Promise<void> {
      await verifyCode(normalizeAddress(input.account), input.type, input.code, false, input.ip);
    },

    /**
     * GET /anonymous/checkAccount (spec: 105, 400, 103): 400 not an e-mail or mobile number; for
     * registration 103 when taken; for reset 105 when unknown. Rate-limited per client address.
     */
    async checkAccount(input: { account: string; type: 'register' | 'reset'; ip: string }): Promise<void> {
      await throttle(`checkAccount:m:${input.ip}`, ACCOUNT_LIMITS.checkAccountPerIpPerMinute, 60);
      await throttle(`checkAccount:h:${input.ip}`, ACCOUNT_LIMITS.checkAccountPerIpPerHour, 3600);
      const target = registrationAddress(input.account);
      if (!target) throw new ApiError(Code.ACCOUNT_FORMAT_INVALID);
      if (input.type === 'register') {
        if (await repository.addressTaken(target.address)) throw new ApiError(Code.ACCOUNT_REGISTERED);
      } else if (!(await repository.findByAccount(target.address))) {
        throw new ApiError(Code.ACCOUNT_NOT_REGISTERED);
      }
    },

    /** POST /anonymous/signup: a plant owner's account, after the agreement, the password rules and the code. */
    async signup(input: {
      account: string;
      code: string;
      password: string;
      nickname: string | undefined;
      agree: boolean;
      language: Language;
      ip: string;
    }): Promise<{ account: string }> {
      const { language } = input;
      if (!input.agree) throw fieldError(language, 'agree', 'account.agreement');
      const target = registrationAddress(input.account);
      if (!target) throw fieldError(language, 'account', 'account.accountFormat');
      assertNewPassword(input.password, passwordRule, language);
      if (await repository.addressTaken(target.address)) throw new ApiError(Code.ACCOUNT_REGISTERED);
      await verifyCode(target.address, 'register', input.code, true, input.ip);
      const roleId = await repository.builtInRoleId('owner');
      if (roleId === undefined) throw new Error('owner role missing: catalogue not synced');
      const nickname =
        input.nickname?.trim() || (target.kind === 'email' ? (target.address.split('@')[0] ?? target.address) : target.address);
      try {
        const userId = await repository.createUser({
          account: target.address,
          passwordHash: await hashPassword(input.password),
          nickname: nickname.slice(0, 32),
          roleId,
          email: target.kind === 'email' ? target.address : null,
          phone: target.kind === 'phone' ? target.address : null,
          language,
        });
        log.info({ event: 'signup', userId, channel: target.kind }, 'account registered');
      } catch (error) {
        // Two registrations of one address at once: the unique account index lets one through.
        if (await repository.addressTaken(target.address)) throw new ApiError(Code.ACCOUNT_REGISTERED);
        throw error;
      }
      return { account: target.address };
    },

    /** POST /anonymous/resetPwd: a new password with the code; every session of the account is signed out. */
    async resetPassword(input: { account: string; code: string; password: string; language: Language; ip: string }): Promise<void> {
      const target = registrationAddress(input.account);
      if (!target) throw fieldError(input.language, 'account', 'account.accountFormat');
      assertNewPassword(input.password, passwordRule, input.language);
      await verifyCode(target.address, 'reset', input.code, true, input.ip);
      const user = await repository.findByAccount(target.address);
      if (!user) throw new ApiError(Code.VERIFICATION_CODE_EXPIRED);
      const at = now();
      await repository.setPassword(user.id, await hashPassword(input.password), at);
      await repository.revokeAllSessions(user.id, 'password_reset', at);
      await deps.throttle.forget('password', user.account);
      log.info({ event: 'password_reset', userId: user.id }, 'password reset with a verification code');
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
