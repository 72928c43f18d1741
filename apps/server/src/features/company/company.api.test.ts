import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import type { AgentsSchema, CompanyInfo, CompanyRole, StaffRow } from '@sunward/contracts/company';
import type { CustomerRow, CustomerType, CustomerTypeTree } from '@sunward/contracts/customers';
import type { PermissionEntry } from '@sunward/contracts/permissions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { gateways } from '../../db/schema.js';
import { createPlant } from '../../test/api.js';
import { type CallResult, call, multipartBody, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let companyId: number;
let otherCompanyId: number;
let admin: { id: number; account: string; password: string; token: string };
let otherAdmin: { id: number; account: string; password: string; token: string };

type Method = 'GET' | 'POST' | 'DELETE';

async function as<T = unknown>(token: string, method: Method, url: string, json?: unknown): Promise<CallResult<T>['body']> {
  return (await call<T>(server.app, method, url, { token, json })).body;
}

async function member(role: Parameters<TestServer['createUser']>[0], company?: number) {
  const user = await server.createUser(role, undefined, company === undefined ? {} : { companyId: company });
  return { ...user, token: (await signIn(server.app, user.account, user.password)).access_token };
}

/** A plant of the caller's (through the wizard's call), by name. */
const plantOf = async (token: string, name = 'Company Plant One') => (await createPlant(server, token, { name })).id;

beforeAll(async () => {
  server = await startTestServer();
  companyId = await server.createCompany('Helios Installers');
  otherCompanyId = await server.createCompany('Nordwind Energie');
  admin = await member('company_admin', companyId);
  otherAdmin = await member('company_admin', otherCompanyId);
});
afterAll(async () => server?.close());

describe('the call catalogue', () => {
  it('answers every row of areas Company and Customers and roles', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, , area]) => area === 'Company' || area === 'Customers and roles');
    expect(rows.length).toBe(34);
    for (const [method, path] of rows) {
      const url = (path ?? '').replace(/\{(\w+)\}/g, ':$1');
      expect(server.app.hasRoute({ method: method as Method, url }), `${method} ${path}`).toBe(true);
    }
  });
});

describe('company information', () => {
  it('shows the company with its administrator and edits it; 203 for a name another company has', async () => {
    const info = await as<CompanyInfo>(admin.token, 'GET', '/api/v1/company/info');
    expect(info.data).toMatchObject({ id: companyId, name: 'Helios Installers', themeColor: '#E6002D', admin: { id: admin.id } });
    const edit = {
      name: 'Helios Installers GmbH',
      contactName: 'Ada',
      email: 'office@helios.test',
      phone: '+49301234',
      address: 'Main St 1',
    };
    expect((await as(admin.token, 'POST', `/api/v1/company/${companyId}/edit`, edit)).code).toBe(0);
    expect((await as<CompanyInfo>(admin.token, 'GET', '/api/v1/company/info')).data).toMatchObject(edit);
    expect((await as(admin.token, 'POST', `/api/v1/company/${companyId}/edit`, { ...edit, name: 'nordwind energie' })).code).toBe(
      Code.COMPANY_NAME_DUPLICATE,
    );
    expect((await as(admin.token, 'GET', '/api/v1/company/check?name=Nordwind%20Energie')).code).toBe(Code.COMPANY_NAME_DUPLICATE);
    expect((await as(admin.token, 'GET', `/api/v1/company/check?name=Helios%20Installers%20GmbH&id=${companyId}`)).code).toBe(0);
  });

  it("refuses to read or edit another company's information (code 2), whatever id is sent", async () => {
    expect((await as(admin.token, 'POST', `/api/v1/company/${otherCompanyId}/edit`, { name: 'Taken Over' })).code).toBe(Code.NO_PERMISSION);
    expect((await as(admin.token, 'POST', `/api/v1/company/${otherCompanyId}/themeColor`, { themeColor: '#000000' })).code).toBe(
      Code.NO_PERMISSION,
    );
    expect((await as(admin.token, 'GET', `/api/v1/company/info?id=${otherCompanyId}`)).code).toBe(Code.NO_PERMISSION);
  });

  it('sets the theme colour, which reaches every user of the company through GET /api/v1/user', async () => {
    const staff = await member('company_staff', companyId);
    expect((await as(admin.token, 'POST', `/api/v1/company/${companyId}/themeColor`, { themeColor: '#1677ff' })).code).toBe(0);
    const me = await as<{ userid: { company: { themeColor: string } } }>(staff.token, 'GET', '/api/v1/user');
    expect(me.data.userid.company.themeColor).toBe('#1677FF');
    expect((await as(admin.token, 'POST', `/api/v1/company/${companyId}/themeColor`, { themeColor: 'red' })).code).toBe(Code.VALIDATION);
    expect((await as(staff.token, 'POST', `/api/v1/company/${companyId}/themeColor`, { themeColor: '#000000' })).code).toBe(
      Code.NO_PERMISSION,
    );
  });

  it('uploads a logo and an icon checked by content, and shows them to the company’s users', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(64, 2)]);
    const upload = async (name: string, bytes: Buffer) => {
      const body = multipartBody({}, { name, bytes });
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/v1/company/uploadLogo',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': body.contentType },
        payload: body.payload,
      });
      return response.json() as { code: number; data: { url: string } };
    };
    const logo = await upload('logo.png', png);
    const icon = await upload('icon.gif', gif);
    expect(logo.code).toBe(0);
    expect(icon.data.url).toMatch(/\.gif$/);
    // A text file renamed .png is refused.
    expect((await upload('fake.png', Buffer.from('not an image at all'))).code).toBe(Code.VALIDATION);
    expect(
      (await as(admin.token, 'POST', `/api/v1/company/${companyId}/logo`, { logoUrl: logo.data.url, iconUrl: icon.data.url })).code,
    ).toBe(0);
    // Only images this server issued: a made-up name is refused.
    expect(
      (
        await as(admin.token, 'POST', `/api/v1/company/${companyId}/logo`, {
          logoUrl: `/api/v1/files/company/${'a'.repeat(32)}.png`,
          iconUrl: null,
        })
      ).code,
    ).toBe(Code.VALIDATION);
    const staff = await member('company_staff', companyId);
    const me = await as<{ userid: { company: { logoUrl: string; iconUrl: string } } }>(staff.token, 'GET', '/api/v1/user');
    expect(me.data.userid.company).toMatchObject({ logoUrl: logo.data.url, iconUrl: icon.data.url });
    const image = await server.app.inject({ method: 'GET', url: logo.data.url });
    expect(image.headers['content-type']).toBe('image/png');
  });
});

describe('staff', () => {
  it('adds a member with a role; 104 for an existing account, 106 for one linked to another company', async () => {
    const roles = await as<CompanyRole[]>(admin.token, 'GET', '/api/v1/company/roles');
    const staffRole = roles.data.find((r) => r.key === 'company_staff');
    if (!staffRole) throw new Error('no staff role');
    const add = (account: string) =>
      as<{ id: number }>(admin.token, 'POST', '/api/v1/company/user/add', {
        account,
        password: 'Member2024x',
        nickname: 'Max',
        roleId: staffRole.id,
      });
    const added = await add('max@helios.test');
    expect(added.code).toBe(0);
    expect((await add('max@helios.test')).code).toBe(Code.ACCOUNT_EXISTS);
    expect((await add(otherAdmin.account)).code).toBe(Code.ACCOUNT_HAS_COMPANY);
    expect((await as(admin.token, 'GET', `/api/v1/company/user/check?account=${otherAdmin.account}`)).code).toBe(Code.ACCOUNT_HAS_COMPANY);
    expect((await as(admin.token, 'GET', '/api/v1/company/user/check?account=free@helios.test')).code).toBe(0);
    // A weak password and a role of another company are refused.
    const weak = await as(admin.token, 'POST', '/api/v1/company/user/add', {
      account: 'w@helios.test',
      password: 'abc',
      nickname: 'W',
      roleId: staffRole.id,
    });
    expect(weak.code).toBe(Code.VALIDATION);
    const otherRole = await as<{ id: number }>(otherAdmin.token, 'POST', '/api/v1/company/role', {
      name: 'Theirs',
      permissions: ['station.view'],
    });
    const foreign = await as(admin.token, 'POST', '/api/v1/company/user/add', {
      account: 'f@helios.test',
      password: 'Member2024x',
      nickname: 'F',
      roleId: otherRole.data.id,
    });
    expect(foreign.code).toBe(Code.VALIDATION);

    // The new member signs in and is listed; the form body (url-encoded) works too.
    await signIn(server.app, 'max@helios.test', 'Member2024x');
    const form = await call<{ id: number }>(server.app, 'POST', '/api/v1/company/user/add', {
      token: admin.token,
      form: { account: 'form@helios.test', password: 'Member2024x', nickname: 'Form', roleId: String(staffRole.id) },
    });
    expect(form.body.code).toBe(0);
    const list = await as<{ infos: StaffRow[]; total: number }>(admin.token, 'GET', '/api/v1/company/user/list?keyword=helios.test');
    expect(list.data.infos.map((r) => r.account)).toEqual(expect.arrayContaining(['max@helios.test', 'form@helios.test']));
    expect((await as<StaffRow>(admin.token, 'GET', `/api/v1/company/user/${added.data.id}`)).data.roleKey).toBe('company_staff');
    // Not another company's member.
    expect((await as(admin.token, 'GET', `/api/v1/company/user/${otherAdmin.id}`)).code).toBe(Code.NO_PERMISSION);
  });

  it('edits and deletes a member; never the administrator, never oneself; 802 for one’s own role', async () => {
    const staff = await member('company_staff', companyId);
    const roles = await as<CompanyRole[]>(admin.token, 'GET', '/api/v1/company/roles');
    const staffRoleId = roles.data.find((r) => r.key === 'company_staff')?.id ?? 0;
    const adminRoleId = roles.data.find((r) => r.key === 'company_admin')?.id ?? 0;
    expect(
      (await as(admin.token, 'POST', `/api/v1/company/user/edit/${staff.id}`, { nickname: 'Renamed', roleId: staffRoleId })).code,
    ).toBe(0);
    // The administrator role is given only by a transfer.
    expect((await as(admin.token, 'POST', `/api/v1/company/user/edit/${staff.id}`, { nickname: 'X', roleId: adminRoleId })).code).toBe(
      Code.VALIDATION,
    );
    expect((await as(admin.token, 'POST', `/api/v1/company/user/edit/${admin.id}`, { nickname: 'Me', roleId: staffRoleId })).code).toBe(
      Code.ROLE_OWN_NOT_MODIFIABLE,
    );
    expect((await as(admin.token, 'POST', `/api/v1/company/user/delete/${admin.id}`)).code).toBe(Code.VALIDATION);
    expect((await as(admin.token, 'POST', `/api/v1/company/user/delete/${otherAdmin.id}`)).code).toBe(Code.NO_PERMISSION);
    const plantId = await plantOf(staff.token, 'Staff Built Plant');
    expect((await as(admin.token, 'POST', `/api/v1/company/user/delete/${staff.id}`)).code).toBe(0);
    // The member is signed out at once; the plant stays with the company.
    expect((await call(server.app, 'GET', '/api/v1/user', { token: staff.token })).status).toBe(401);
    expect((await as<{ id: number }>(admin.token, 'GET', `/api/v1/plant/${plantId}`)).code).toBe(0);
  });

  it('transfers the administrator to a member after the password (705 when wrong)', async () => {
    const company = await server.createCompany('Transfer Test Co');
    const boss = await member('company_admin', company);
    const next = await member('company_staff', company);
    const outsider = await member('company_staff', companyId);
    expect((await as(boss.token, 'POST', `/api/v1/company/${company}/admin`, { userId: next.id, password: 'wrong' })).code).toBe(
      Code.OWNER_PASSWORD_WRONG,
    );
    expect((await as(boss.token, 'POST', `/api/v1/company/${company}/admin`, { userId: outsider.id, password: boss.password })).code).toBe(
      Code.VALIDATION,
    );
    expect((await as(boss.token, 'POST', `/api/v1/company/${company}/admin`, { userId: next.id, password: boss.password })).code).toBe(0);
    const info = await as<CompanyInfo>(next.token, 'GET', '/api/v1/company/info');
    expect(info.data.admin?.id).toBe(next.id);
    // The former administrator is staff now: no company editing on the next request.
    expect((await as(boss.token, 'POST', `/api/v1/company/${company}/themeColor`, { themeColor: '#000000' })).code).toBe(
      Code.NO_PERMISSION,
    );
  });

  it('lets an account without a company start one, becoming its administrator (203 for a taken name)', async () => {
    const owner = await member('owner');
    expect((await as(owner.token, 'POST', '/api/v1/company/add', { name: 'Nordwind Energie' })).code).toBe(Code.COMPANY_NAME_DUPLICATE);
    const created = await as<{ id: number }>(owner.token, 'POST', '/api/v1/company/add', { name: 'Solo Solar' });
    expect(created.code).toBe(0);
    const again = await signIn(server.app, owner.account, owner.password);
    expect((await as<CompanyInfo>(again.access_token, 'GET', '/api/v1/company/info')).data).toMatchObject({ name: 'Solo Solar' });
    expect((await as(again.access_token, 'POST', '/api/v1/company/add', { name: 'Second One' })).code).toBe(Code.NO_PERMISSION);
    const platform = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
    expect((await as(platform, 'POST', '/api/v1/company/add', { name: 'By Platform', adminAccount: admin.account })).code).toBe(
      Code.ACCOUNT_HAS_COMPANY,
    );
  });
});

describe('roles', () => {
  it('creates at most 5 custom roles (800) with unique names (801)', async () => {
    const company = await server.createCompany('Role Limits Co');
    const boss = await member('company_admin', company);
    for (let i = 1; i <= 5; i++)
      expect((await as(boss.token, 'POST', '/api/v1/company/role', { name: `Role ${i}`, permissions: ['station.view'] })).code).toBe(0);
    expect((await as(boss.token, 'POST', '/api/v1/company/role', { name: 'Role 6', permissions: [] })).code).toBe(Code.ROLE_LIMIT);
    const company2 = await server.createCompany('Role Names Co');
    const boss2 = await member('company_admin', company2);
    expect((await as(boss2.token, 'POST', '/api/v1/company/role', { name: 'Viewer', permissions: [] })).code).toBe(0);
    expect((await as(boss2.token, 'POST', '/api/v1/company/role', { name: 'viewer', permissions: [] })).code).toBe(Code.ROLE_EXISTS);
    expect((await as(boss2.token, 'GET', '/api/v1/company/role/check?name=Viewer')).code).toBe(Code.ROLE_EXISTS);
    // Names are per company: another company may use it.
    expect((await as(boss.token, 'GET', '/api/v1/company/role/check?name=Viewer')).code).toBe(0);
  });

  it('grants only what the company holds: no platform keys, no unknown keys', async () => {
    const firmware = await as(admin.token, 'POST', '/api/v1/company/role', {
      name: 'Sneaky',
      permissions: ['station.view', 'firmware.edit'],
    });
    expect(firmware.code).toBe(Code.VALIDATION);
    expect((await as(admin.token, 'POST', '/api/v1/company/role', { name: 'Sneaky', permissions: ['no.such.key'] })).code).toBe(
      Code.VALIDATION,
    );
    const tree = await as<PermissionEntry[]>(admin.token, 'GET', '/api/v1/permission/company');
    expect(tree.data.map((p) => p.key)).not.toContain('firmware.management');
    expect(tree.data.map((p) => p.key)).toContain('company.role.edit');
  });

  it('applies a role change on the member’s next request, refuses one’s own role (802) and a role in use', async () => {
    const created = await as<{ id: number }>(admin.token, 'POST', '/api/v1/company/role', {
      name: 'Plant viewers',
      remark: 'read only',
      permissions: ['station.view'],
    });
    expect(created.code).toBe(0);
    const viewer = await as<{ id: number }>(admin.token, 'POST', '/api/v1/company/user/add', {
      account: 'viewer@helios.test',
      password: 'Viewer2024x',
      nickname: 'Vera',
      roleId: created.data.id,
    });
    expect(viewer.code).toBe(0);
    const token = (await signIn(server.app, 'viewer@helios.test', 'Viewer2024x')).access_token;
    const keys = async () => (await as<PermissionEntry[]>(token, 'GET', '/api/v1/permission')).data.map((p) => p.key).sort();
    expect(await keys()).toEqual(['station.view']);
    expect((await as(token, 'GET', '/api/v1/gateways')).code).toBe(Code.NO_PERMISSION);
    expect(
      (
        await as(admin.token, 'POST', `/api/v1/company/role/${created.data.id}`, {
          name: 'Plant viewers',
          remark: 'read only',
          permissions: ['station.view', 'equip.view', 'gateway.view'],
        })
      ).code,
    ).toBe(0);
    expect(await keys()).toEqual(['equip.view', 'gateway.view', 'station.view']);
    const roles = await as<CompanyRole[]>(admin.token, 'GET', '/api/v1/company/roles');
    expect(roles.data.find((r) => r.id === created.data.id)).toMatchObject({ memberCount: 1, remark: 'read only', builtIn: false });
    expect((await as(admin.token, 'POST', `/api/v1/company/role/${created.data.id}/delete`)).code).toBe(Code.VALIDATION);

    // A member who may edit roles cannot edit their own (802).
    const editors = await as<{ id: number }>(admin.token, 'POST', '/api/v1/company/role', {
      name: 'Role editors',
      permissions: ['company.management', 'company.role.list.view', 'company.role.edit'],
    });
    await as(admin.token, 'POST', '/api/v1/company/user/add', {
      account: 'editor@helios.test',
      password: 'Editor2024x',
      nickname: 'Ed',
      roleId: editors.data.id,
    });
    const editor = (await signIn(server.app, 'editor@helios.test', 'Editor2024x')).access_token;
    const own = {
      name: 'Role editors',
      permissions: ['company.management', 'company.role.list.view', 'company.role.edit', 'station.view'],
    };
    expect((await as(editor, 'POST', `/api/v1/company/role/${editors.data.id}`, own)).code).toBe(Code.ROLE_OWN_NOT_MODIFIABLE);
    expect((await as(editor, 'POST', `/api/v1/company/role/${editors.data.id}/delete`)).code).toBe(Code.ROLE_OWN_NOT_MODIFIABLE);
    // Nor grant what they lack themselves (station.view).
    expect(
      (await as(editor, 'POST', `/api/v1/company/role/${created.data.id}`, { name: 'Plant viewers', permissions: ['station.view'] })).code,
    ).toBe(Code.VALIDATION);
    // Another company's role is not theirs to touch.
    const theirs = (await as<CompanyRole[]>(otherAdmin.token, 'GET', '/api/v1/company/roles')).data.find((r) => !r.builtIn);
    expect((await as(admin.token, 'POST', `/api/v1/company/role/${theirs?.id}/delete`)).code).toBe(Code.NO_PERMISSION);
  });
});

describe('agents', () => {
  it('refuses 900 and 901 at once; other rules (902, 903) reach only the invitee, who accepts; 202 afterwards', async () => {
    const add = (token: string, account: string) => as<{ invitationId: number }>(token, 'POST', '/api/v1/company/agent', { account });
    const staff = await member('company_staff', companyId);
    const outsiderStaff = await member('company_staff', otherCompanyId);
    const thirdParty = await member('agent');
    expect((await add(admin.token, admin.account)).code).toBe(Code.AGENT_SELF);
    expect((await add(admin.token, staff.account)).code).toBe(Code.AGENT_INTERNAL_EMPLOYEE);
    // Invitations, answered alike (issue 15.4): the company learns nothing about the account.
    expect((await add(admin.token, outsiderStaff.account)).code).toBe(0);
    expect((await add(admin.token, thirdParty.account)).code).toBe(0);
    expect((await add(admin.token, 'nobody@nowhere.test')).code).toBe(0);
    const ok = await add(admin.token, otherAdmin.account);
    expect(ok.code).toBe(0);
    expect((await as(otherAdmin.token, 'POST', `/api/v1/invitations/${ok.data.invitationId}/accept`)).code).toBe(0);
    expect((await add(admin.token, otherAdmin.account)).code).toBe(Code.AGENT_EXISTS);
    const third = await server.createCompany('Third Co');
    const thirdAdmin = await member('company_admin', third);
    const again = await add(thirdAdmin.token, otherAdmin.account);
    expect(again.code).toBe(0);
    expect((await as(otherAdmin.token, 'POST', `/api/v1/invitations/${again.data.invitationId}/accept`)).code).toBe(Code.AGENT_ALREADY);
    const list = await as<z.infer<typeof AgentsSchema>>(admin.token, 'GET', '/api/v1/company/agents');
    expect(list.data.agents).toEqual([expect.objectContaining({ account: otherAdmin.account, companyName: 'Nordwind Energie' })]);
    const principal = await as<z.infer<typeof AgentsSchema>>(otherAdmin.token, 'GET', '/api/v1/company/agents');
    expect(principal.data.principals.map((p) => p.companyId)).toEqual([companyId]);
    const appointment = list.data.agents[0]?.id;
    expect((await as(thirdAdmin.token, 'POST', `/api/v1/company/agent/${appointment}/delete`)).code).toBe(Code.NO_PERMISSION);
    expect((await as(admin.token, 'POST', `/api/v1/company/agent/${appointment}/delete`)).code).toBe(0);
  });
});

describe('gateways', () => {
  it('gives an unassigned gateway to the company of the user who binds it', async () => {
    const plantId = await plantOf(admin.token, 'Gateway Owner Plant');
    const rows = await server.database.db.select().from(gateways).where(eq(gateways.plantId, plantId));
    expect(rows.map((g) => g.companyId)).toEqual([companyId]);
  });
});

describe('customers and customer types', () => {
  it('keeps two label levels: 206 for a name taken at its level, 205 for a type with subtypes', async () => {
    const create = (body: object) => as<{ id: number }>(admin.token, 'POST', '/api/v1/customerType', body);
    const homes = await create({ name: 'Households' });
    const farms = await create({ name: 'Farms' });
    expect((await create({ name: 'households' })).code).toBe(Code.CUSTOMER_TYPE_NAME_EXISTS);
    const small = await create({ name: 'Small', parentId: homes.data.id });
    expect(small.code).toBe(0);
    expect((await create({ name: 'Small', parentId: homes.data.id })).code).toBe(Code.CUSTOMER_TYPE_NAME_EXISTS);
    // The same secondary name under another primary is fine; moving it under Households is not.
    const farmSmall = await create({ name: 'Small', parentId: farms.data.id });
    expect(farmSmall.code).toBe(0);
    expect(
      (await as(admin.token, 'POST', `/api/v1/customerType/${farmSmall.data.id}`, { name: 'Small', parentId: homes.data.id })).code,
    ).toBe(Code.CUSTOMER_TYPE_NAME_EXISTS);
    // Only two levels: no label under a secondary label.
    expect((await create({ name: 'Tiny', parentId: small.data.id })).code).toBe(Code.VALIDATION);
    expect((await as(admin.token, 'POST', `/api/v1/customerType/${homes.data.id}/delete`)).code).toBe(Code.CUSTOMER_TYPE_HAS_SUBTYPES);
    const tree = await as<CustomerTypeTree>(admin.token, 'GET', '/api/v1/customer/types');
    expect(tree.data.find((t) => t.name === 'Households')?.children.map((c) => c.name)).toEqual(['Small']);
    expect((await as<CustomerType>(admin.token, 'GET', `/api/v1/customerType/${small.data.id}`)).data.parentId).toBe(homes.data.id);
    expect((await as(otherAdmin.token, 'GET', `/api/v1/customerType/${small.data.id}`)).code).toBe(Code.NO_PERMISSION);
    expect((await as(admin.token, 'POST', `/api/v1/customerType/${farmSmall.data.id}/delete`)).code).toBe(0);
    expect((await as<CustomerType[]>(admin.token, 'GET', '/api/v1/customerTypes')).data.map((t) => t.name).sort()).toEqual([
      'Farms',
      'Households',
      'Small',
    ]);
  });

  it('adds a customer who then sees exactly the plants assigned to it, read-only; 204; an existing account is invited', async () => {
    const assigned = await plantOf(admin.token, 'Assigned Plant');
    const notAssigned = await plantOf(admin.token, 'Unassigned Plant');
    const foreign = await plantOf(otherAdmin.token, 'Foreign Plant');
    const body = { account: 'client@home.test', password: 'Client2024x', name: 'Client One', plantIds: [assigned] };
    expect((await as(admin.token, 'POST', '/api/v1/customer', { ...body, plantIds: [foreign] })).code).toBe(Code.VALIDATION);
    const added = await as<{ id: number }>(admin.token, 'POST', '/api/v1/customer', body);
    expect(added.code).toBe(0);
    expect((await as(admin.token, 'POST', '/api/v1/customer', body)).code).toBe(Code.CUSTOMER_EXISTS);
    expect((await as(admin.token, 'GET', '/api/v1/customer/check?account=client@home.test')).code).toBe(Code.CUSTOMER_EXISTS);
    // Another company's administrator is invited like any existing account (no 106: issue 15.4).
    const invited = await as<{ id: number | null; invitationId: number }>(admin.token, 'POST', '/api/v1/customer', {
      ...body,
      account: otherAdmin.account,
    });
    expect(invited.code).toBe(0);
    expect(invited.data.id).toBeNull();
    const fresh = await as<{ exists: boolean }>(admin.token, 'GET', '/api/v1/customer/check?account=fresh@home.test');
    expect(fresh.data.exists).toBe(false);

    const client = (await signIn(server.app, 'client@home.test', 'Client2024x')).access_token;
    const plants = await as<{ records: { id: number }[] }>(client, 'GET', '/api/v1/plants');
    expect(plants.data.records.map((p) => p.id)).toEqual([assigned]);
    expect((await as(client, 'GET', `/api/v1/plant/${notAssigned}`)).code).toBe(Code.PLANT_NOT_FOUND);
    expect((await as(client, 'POST', `/api/v1/plant/${assigned}/delete`, {})).code).not.toBe(0);
    // The customer is not staff: no company area.
    expect((await as(client, 'GET', '/api/v1/company/info')).code).toBe(Code.NO_PERMISSION);

    const list = await as<{ infos: CustomerRow[] }>(admin.token, 'GET', '/api/v1/customers?keyword=client');
    const row = list.data.infos[0];
    expect(row).toMatchObject({
      account: 'client@home.test',
      name: 'Client One',
      companyId,
      plants: [{ id: assigned, name: 'Assigned Plant' }],
    });
    if (!row) throw new Error('customer not listed');
    const permissions = await as<PermissionEntry[]>(admin.token, 'GET', `/api/v1/role/${row.customerId}`);
    expect(permissions.data.map((p) => p.key)).toContain('station.view');
    expect((await as(otherAdmin.token, 'GET', `/api/v1/role/${row.customerId}`)).code).toBe(Code.NO_PERMISSION);

    // Editing reassigns plants; another company's admin cannot edit or delete it.
    const edit = { name: 'Client Renamed', plantIds: [notAssigned] };
    expect((await as(otherAdmin.token, 'POST', `/api/v1/customer/${row.customerId}/${otherCompanyId}`, edit)).code).toBe(
      Code.NO_PERMISSION,
    );
    expect((await as(otherAdmin.token, 'POST', `/api/v1/customer/${row.customerId}/${companyId}`, edit)).code).toBe(Code.NO_PERMISSION);
    expect((await as(admin.token, 'POST', `/api/v1/customer/${row.customerId}/${companyId}`, edit)).code).toBe(0);
    const after = await as<{ records: { id: number }[] }>(client, 'GET', '/api/v1/plants');
    expect(after.data.records.map((p) => p.id)).toEqual([notAssigned]);
    const options = await as<{ masterId: number }[]>(admin.token, 'GET', '/api/v1/customers/list');
    expect(options.data.map((o) => o.masterId)).toContain(row.masterId);

    expect((await as(otherAdmin.token, 'DELETE', `/api/v1/customers/delete/${companyId}/${row.masterId}`)).code).toBe(Code.NO_PERMISSION);
    expect((await as(admin.token, 'DELETE', `/api/v1/customers/delete/${companyId}/${row.masterId}`)).code).toBe(0);
    const gone = await as<{ records: { id: number }[] }>(client, 'GET', '/api/v1/plants');
    expect(gone.data.records).toEqual([]);
  });
});
