import { PlusOutlined } from '@ant-design/icons';
import { COMPANY_LIMITS, type CompanyRole } from '@sunward/contracts/company';
import type { PermissionEntry } from '@sunward/contracts/permissions';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Space, Table, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog } from '../../components/FormDialog';
import { LinkActions, useRemoval } from '../../components/LinkActions';
import { ListPage } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { registerTexts } from '../../lib/feature-texts';
import { checkRoleName, companyKeys, createRole, deleteRole, fetchGrantable, fetchRoles, fieldErrors, updateRole } from './api';
import { companyTexts } from './company-texts';

registerTexts(companyTexts);

/** The permission catalogue as a tree: menus hold their child menus and buttons (parentKey). */
export function permissionTree(entries: readonly PermissionEntry[]): DataNode[] {
  const keys = new Set(entries.map((e) => e.key));
  const build = (parent: string | null): DataNode[] =>
    entries
      .filter((e) => (parent === null ? e.parentKey === null || !keys.has(e.parentKey) : e.parentKey === parent))
      .map((e) => ({ key: e.key, title: e.name, children: build(e.key) }));
  return build(null);
}

/** Company roles (spec 01 §2 /enterprise/roles): built-in roles shown, up to five custom roles edited with a permission tree. */
export function RolesPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('company.role.edit');
  const roles = useQuery({ queryKey: companyKeys.roles, queryFn: fetchRoles });
  const [dialog, setDialog] = useState<{ role?: CompanyRole } | null>(null);
  const customCount = (roles.data ?? []).filter((r) => !r.builtIn).length;
  const remove = useRemoval(deleteRole, companyKeys.all);
  return (
    <ListPage
      testId="roles-page"
      title={<PageTitle route={route} />}
      tools={
        canEdit && (
          <>
            <Typography.Text type="secondary">
              {t('enterprise.roleLimit', { max: COMPANY_LIMITS.rolesMax, count: customCount })}
            </Typography.Text>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={customCount >= COMPANY_LIMITS.rolesMax}
              onClick={() => setDialog({})}
              data-testid="role-add"
            >
              {t('enterprise.addRole')}
            </Button>
          </>
        )
      }
    >
      <Table<CompanyRole>
        rowKey="id"
        data-testid="roles-table"
        loading={roles.isFetching}
        pagination={false}
        dataSource={roles.data ?? []}
        columns={[
          {
            key: 'name',
            title: t('enterprise.roleName'),
            render: (_, r) => (
              <Space size={4}>
                {r.name}
                {r.builtIn && <Tag>{t('enterprise.builtIn')}</Tag>}
                {r.own && <Tag color="blue">{t('enterprise.ownRole')}</Tag>}
              </Space>
            ),
          },
          { key: 'remark', title: t('enterprise.remark'), render: (_, r) => r.remark ?? '--' },
          {
            key: 'permissions',
            title: t('enterprise.permissions'),
            render: (_, r) => t('enterprise.permissionCount', { count: r.permissions.length }),
          },
          { key: 'members', title: t('enterprise.members'), render: (_, r) => r.memberCount },
          {
            key: 'actions',
            title: t('enterprise.actions'),
            render: (_, r) =>
              canEdit &&
              !r.builtIn &&
              !r.own && (
                <LinkActions
                  actions={[
                    { key: 'edit', label: t('enterprise.edit'), onClick: () => setDialog({ role: r }) },
                    {
                      key: 'delete',
                      label: t('enterprise.deleteMember'),
                      danger: true,
                      confirm: { title: t('enterprise.deleteRoleTitle', { name: r.name }) },
                      onClick: () => remove.mutateAsync(r.id),
                    },
                  ]}
                />
              ),
          },
        ]}
      />
      {dialog && <RoleModal role={dialog.role} onClose={() => setDialog(null)} />}
    </ListPage>
  );
}

/** A role's keys with every menu above them, so a granted button always comes with the menu that shows it. */
export function withAncestors(keys: readonly string[], entries: readonly PermissionEntry[]): string[] {
  const parentOf = new Map(entries.map((e) => [e.key, e.parentKey]));
  const out = new Set<string>();
  for (const key of keys) {
    let current: string | null | undefined = key;
    while (current && !out.has(current)) {
      out.add(current);
      current = parentOf.get(current);
    }
  }
  return entries.map((e) => e.key).filter((k) => out.has(k));
}

function RoleModal({ role, onClose }: { role?: CompanyRole; onClose: () => void }) {
  const grantable = useQuery({ queryKey: companyKeys.grantable, queryFn: fetchGrantable });
  return grantable.data ? <RoleForm role={role} entries={grantable.data} onClose={onClose} /> : null;
}

function RoleForm({ role, entries, onClose }: { role?: CompanyRole; entries: PermissionEntry[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; remark?: string }>();
  const tree = permissionTree(entries);
  const parents = new Set(entries.map((e) => e.parentKey));
  // A checked parent in the tree means "all of it": only leaves are set as checked, parents follow.
  const [checked, setChecked] = useState<string[]>(() => (role?.permissions ?? []).filter((k) => !parents.has(k)));
  const [treeError, setTreeError] = useState<string>();
  return (
    <FormDialog<{ name: string; remark?: string }>
      form={form}
      width={560}
      title={role ? t('enterprise.editRole', { name: role.name }) : t('enterprise.addRole')}
      okId="role-submit"
      testId="role-form"
      initialValues={{ name: role?.name, remark: role?.remark ?? undefined }}
      save={(values) => {
        const permissions = withAncestors(checked, entries);
        return role ? updateRole(role.id, { ...values, permissions }) : createRole({ ...values, permissions }).then(() => null);
      }}
      invalidate={[companyKeys.all]}
      onRefusal={(error) => {
        const problem = fieldErrors(error).permissions;
        if (problem) setTreeError(problem);
        return problem !== undefined;
      }}
      fieldOf={() => 'name'}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('enterprise.roleName')}
        validateDebounce={400}
        rules={[
          { required: true, whitespace: true, message: t('enterprise.required') },
          { max: COMPANY_LIMITS.roleNameMax },
          {
            validator: async (_, v?: string) => {
              if (!v?.trim()) return;
              await checkRoleName(v.trim(), role?.id).catch(() => {
                throw new Error(t('enterprise.roleTaken'));
              });
            },
          },
        ]}
      >
        <Input id="role-name" />
      </Form.Item>
      <Form.Item name="remark" label={t('enterprise.remark')} rules={[{ max: COMPANY_LIMITS.remarkMax }]}>
        <Input id="role-remark" />
      </Form.Item>
      <Form.Item label={t('enterprise.permissions')} validateStatus={treeError ? 'error' : undefined} help={treeError}>
        <div
          className="sw-permission-tree"
          data-testid="permission-tree"
          style={{ maxHeight: 360, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}
        >
          {tree.length > 0 && (
            <Tree
              checkable
              defaultExpandAll
              selectable={false}
              treeData={tree}
              checkedKeys={checked}
              onCheck={(value) => {
                const keys = Array.isArray(value) ? value : value.checked;
                setChecked(keys.map(String));
                setTreeError(undefined);
              }}
            />
          )}
        </div>
      </Form.Item>
    </FormDialog>
  );
}
