import type { Enrollment } from '@sunward/contracts/energy-hub';
import { Button, type ButtonProps, Tooltip } from 'antd';
import { type ReactNode, useId } from 'react';
import { VisuallyHidden } from '../../components/VisuallyHidden';

type Access = Enrollment['access'];

/**
 * What the caller may do with an enrollment's plant, as the server answers it (`access`: their level on the plant,
 * only view without the right to edit plants): operate answers events, changes settings and unenrolls; manage is
 * the programme's side (accept or reject, publish an event). The server checks again on every call.
 */
export const mayOperate = (access: Access): boolean => access === 'operate' || access === 'manage';
export const mayManage = (access: Access): boolean => access === 'manage';

/**
 * A button the caller may not use here: shown unavailable (aria-disabled, so it stays focusable) with the reason as
 * its tooltip and its description; pressing it does nothing.
 */
export function GuardedButton({ allowed, why, children, ...props }: ButtonProps & { allowed: boolean; why: string; children: ReactNode }) {
  const reason = useId();
  if (allowed) return <Button {...props}>{children}</Button>;
  return (
    <>
      <Tooltip title={why}>
        <Button
          {...props}
          htmlType="button"
          loading={false}
          aria-disabled="true"
          aria-describedby={reason}
          onClick={(event) => event.preventDefault()}
          style={{ ...props.style, cursor: 'not-allowed', opacity: 0.5 }}
          data-allowed="false"
        >
          {children}
        </Button>
      </Tooltip>
      <VisuallyHidden>
        <span id={reason}>{why}</span>
      </VisuallyHidden>
    </>
  );
}
