import { translate } from '@sunward/contracts/messages';
import { accountKind, passwordProblem, type RegistrationPasswordRule } from '@sunward/contracts/validators';
import type { Rule } from 'antd/es/form';
import { currentLanguage } from '../../lib/i18n';

/** The server's rule text for a policy, in the console's language (the same words the server refuses with). */
export function passwordRuleText(rule: RegistrationPasswordRule): string {
  return translate(currentLanguage(), rule === 'strict' ? 'account.passwordStrict' : 'account.passwordLenient');
}

/**
 * The form-side check of a new password: the shared rule of PASSWORD_POLICY (contracts validators).
 * The common-password list stays on the server, which refuses such a password with its own message.
 */
export function newPasswordError(value: string, rule: RegistrationPasswordRule): string | undefined {
  const problem = passwordProblem(value, rule);
  if (problem === 'spaces') return translate(currentLanguage(), 'account.passwordSpaces');
  if (problem === 'rule') return passwordRuleText(rule);
  return undefined;
}

/** The account field of registration and password reset: required, and an e-mail address or a phone number. */
export function accountRules(requiredMessage: string): Rule[] {
  return [
    { required: true, whitespace: true, message: requiredMessage },
    {
      validator: (_, value: string | undefined) =>
        !value || accountKind(value.trim().toLowerCase())
          ? Promise.resolve()
          : Promise.reject(new Error(translate(currentLanguage(), 'account.accountFormat'))),
    },
  ];
}
