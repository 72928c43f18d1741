import type { PermissionKey } from '@sunward/contracts/permissions';
import type { SmartApp } from '@sunward/contracts/smart-home';
import type { UiKey } from '../locales/en';

/**
 * Spec 01 §2 as data: every console route with its permission, title and menu behaviour.
 * `page` names an entry of the page registry (app/pages.ts) so this file stays free of components
 * and the sign-in page does not load the shell's code.
 */
export interface AppRoute {
  path: string;
  title: UiKey;
  /** Menu and access key; a route without one is open to any signed-in user. */
  permission?: PermissionKey;
  /** Not shown in the menu. */
  hidden?: boolean;
  /** Kept alive once visited (spec 01 §4 "pages flagged cacheable"). */
  cached?: boolean;
  redirect?: string;
  /** Menu entry opens in a new browser tab. */
  newTab?: boolean;
  /** The menu entry highlighted while this route shows (spec 01 §2 highlight rules). */
  highlight?: string;
  page?: PageName;
  children?: AppRoute[];
  /** In the menu only while the company enabled this app in the application centre (issue 22). */
  app?: SmartApp;
}

export type PageName =
  | 'placeholder'
  // Application centre, smart bulbs and rules (issue 22)
  | 'appCenter'
  | 'smartLights'
  | 'smartRules'
  // Video surveillance (issue 23)
  | 'videoSpaces'
  | 'videoDevices'
  | 'videoPlayer'
  | 'videoGrants'
  // Energy hub (issue 23)
  | 'energyHubEnrollment'
  | 'energyHubEvents'
  | 'energyHubDevices'
  | 'energyHubSettings'
  // Company and customers (issue 7)
  | 'companyInfo'
  | 'companyStaff'
  | 'companyRoles'
  // Channel hierarchy (issue 24)
  | 'channel'
  | 'customerList'
  | 'customerTypes'
  | 'personalSettings'
  | 'plantList'
  | 'plantAdd'
  | 'plantEdit'
  | 'plantOverview'
  | 'plantCompare'
  // Plant layout (issue 20)
  | 'plantLayout'
  | 'inverterList'
  | 'batteryList'
  | 'otherDeviceList'
  | 'acSwitchList'
  | 'upgradeLog'
  | 'batchTasks'
  | 'communicationLog'
  | 'debugLog'
  | 'deviceDetail'
  | 'workdataList'
  | 'eventList'
  | 'gatewayList'
  | 'firmwareList'
  | 'noticeList'
  | 'versionList'
  | 'updateLog'
  | 'releaseNotes'
  | 'batteryFirmware'
  | 'hardwareList'
  // Setting pages (issue 19)
  | 'deviceSettings'
  | 'batterySettings'
  | 'notice'
  | 'smsRecords'
  // Dictionary and OEM (issue 24)
  | 'dictionary'
  | 'oemProjects'
  // Background jobs (issue 26)
  | 'backgroundJobs'
  // Device protocols (issue 19)
  | 'protocolList'
  | 'protocolEditor'
  | 'protocolHistory'
  // Download centre (issue 21)
  | 'downloadCenter'
  | 'toolbox'
  | 'protocolAnalysis'
  // Reports (issue 21)
  | 'reports'
  | 'eventDescriptions'
  // Large-screen display links (issue 20)
  | 'displayLinks'
  // Open plant API: API keys and webhooks (issue 25)
  | 'openApi';

export interface PublicRoute {
  path: string;
  title: UiKey;
  page:
    | 'login'
    | 'info'
    | 'noAccess'
    // Large-screen display, signed in or through a display link (issue 20)
    | 'fullscreen'
    | 'loginThird'
    | 'authorizationFailed'
    // Accounts (issue 7)
    | 'register'
    | 'forget'
    | 'resetSuccessful'
    | 'agreement'
    | 'agreementEn'
    // Firmware release log (issue 6)
    | 'firmwareReleases'
    // Plant layout through a public link (issue 20)
    | 'plantLayout'
    // The brand's mobile app: APKs, store links, QR code (issue 24)
    | 'appDownload'
    // The documentation shipped with the console, opened by the help button (spec 01 §2; issue 24)
    | 'help';
  /** Text of an information page. */
  text?: UiKey;
}

/** Spec 01 §2 public routes: no sign-in needed. */
export const PUBLIC_ROUTES: PublicRoute[] = [
  { path: '/login', title: 'route.login', page: 'login' },
  { path: '/loginThird', title: 'route.loginThird', page: 'loginThird' },
  { path: '/reg', title: 'route.reg', page: 'register' },
  { path: '/forget', title: 'route.forget', page: 'forget' },
  { path: '/agreement', title: 'route.agreement', page: 'agreement' },
  { path: '/agreementen', title: 'route.agreementen', page: 'agreementEn' },
  { path: '/plantLayout', title: 'route.plantLayout', page: 'plantLayout' },
  { path: '/register/userAgreement', title: 'route.userAgreement', page: 'agreement' },
  { path: '/resetSuccessful', title: 'route.resetSuccessful', page: 'resetSuccessful' },
  { path: '/authorizationFailed', title: 'route.authorizationFailed', page: 'authorizationFailed' },
  { path: '/app/download', title: 'route.appDownload', page: 'appDownload' },
  { path: '/help', title: 'route.help', page: 'help' },
  { path: '/help/:topic', title: 'route.help', page: 'help' },
  { path: '/firmwareLogging', title: 'route.firmwareLogging', page: 'firmwareReleases' },
  { path: '/success', title: 'route.success', page: 'info', text: 'public.successText' },
  { path: '/403', title: 'route.noAccess', page: 'noAccess' },
  { path: '/fullscreen', title: 'route.fullscreen', page: 'fullscreen' },
];

const PLANTS = '/plants';
const INVERTERS = '/device/inverter';

/** Spec 01 §2 shell routes in menu order. */
export const SHELL_ROUTES: AppRoute[] = [
  { path: '/', title: 'route.plants', permission: 'station.view', hidden: true, redirect: PLANTS },
  { path: PLANTS, title: 'route.plants', permission: 'station.view', cached: true, page: 'plantList' },
  { path: '/plant-add', title: 'route.plantAdd', permission: 'station.create', hidden: true, highlight: PLANTS, page: 'plantAdd' },
  {
    path: '/plants/overview/:id/:type',
    title: 'route.plantOverview',
    hidden: true,
    cached: true,
    highlight: PLANTS,
    page: 'plantOverview',
  },
  {
    path: '/plants/compare',
    title: 'route.plantCompare',
    permission: 'station.view',
    hidden: true,
    highlight: PLANTS,
    page: 'plantCompare',
  },
  {
    path: '/plants/layout/:id',
    title: 'route.plantLayout',
    permission: 'station.view',
    hidden: true,
    highlight: PLANTS,
    page: 'plantLayout',
  },
  { path: '/plants/edit/:id', title: 'route.plantEdit', hidden: true, cached: true, highlight: PLANTS, page: 'plantEdit' },
  { path: '/plants/device/setting', title: 'route.plantDeviceSetting', hidden: true, highlight: INVERTERS, page: 'deviceSettings' },
  { path: '/plants/batt-setting', title: 'route.plantBatterySetting', hidden: true, highlight: PLANTS, page: 'batterySettings' },
  { path: '/edit', title: 'route.personalSettings', hidden: true, page: 'personalSettings' },
  { path: '/acenter', title: 'route.appCenter', hidden: true, page: 'appCenter' },
  { path: '/smart/lights', title: 'route.smartLights', permission: 'station.view', app: 'smart_bulb', page: 'smartLights' },
  { path: '/smart/rules', title: 'route.smartRules', permission: 'station.view', app: 'smart_rule', page: 'smartRules' },
  {
    path: '/video',
    title: 'route.video',
    permission: 'video.view',
    app: 'camera',
    redirect: '/video/spaces',
    children: [
      { path: '/video/spaces', title: 'route.videoSpaces', permission: 'video.view', app: 'camera', page: 'videoSpaces' },
      { path: '/video/devices', title: 'route.videoDevices', permission: 'video.view', app: 'camera', page: 'videoDevices' },
      { path: '/video/player', title: 'route.videoPlayer', permission: 'video.view', app: 'camera', page: 'videoPlayer' },
    ],
  },
  {
    path: '/energy-hub',
    title: 'route.energyHub',
    permission: 'station.view',
    app: 'energy_hub',
    redirect: '/energy-hub/enrollment',
    children: [
      {
        path: '/energy-hub/enrollment',
        title: 'route.energyHubEnrollment',
        permission: 'station.view',
        app: 'energy_hub',
        page: 'energyHubEnrollment',
      },
      {
        path: '/energy-hub/events',
        title: 'route.energyHubEvents',
        permission: 'station.view',
        app: 'energy_hub',
        page: 'energyHubEvents',
      },
      {
        path: '/energy-hub/devices',
        title: 'route.energyHubDevices',
        permission: 'station.view',
        app: 'energy_hub',
        page: 'energyHubDevices',
      },
      {
        path: '/energy-hub/settings',
        title: 'route.energyHubSettings',
        permission: 'station.view',
        app: 'energy_hub',
        page: 'energyHubSettings',
      },
    ],
  },
  { path: '/notice', title: 'route.notice', hidden: true, page: 'notice' },
  {
    path: '/device',
    title: 'route.devices',
    permission: 'equip.view',
    redirect: '/device/gateway/list',
    children: [
      { path: '/device/gateway', title: 'route.gateways', permission: 'gateway.view', redirect: '/device/gateway/list', hidden: true },
      { path: '/device/gateway/list', title: 'route.gateways', permission: 'gateway.view', page: 'gatewayList' },
      { path: INVERTERS, title: 'route.inverters', permission: 'inverter.view', page: 'inverterList' },
      { path: '/device/battery', title: 'route.batteries', permission: 'battery.list.view', page: 'batteryList' },
      { path: '/device/other', title: 'route.otherDevices', permission: 'equip.view', page: 'otherDeviceList' },
      { path: '/device/detail/:kind/:sn', title: 'route.deviceDetail', permission: 'equip.view', hidden: true, page: 'deviceDetail' },
      { path: '/device/acSwitch', title: 'route.acSwitches', permission: 'smart.acSwitch', app: 'smart_switch', page: 'acSwitchList' },
      { path: '/device/event', title: 'route.events', permission: 'event.view', page: 'eventList' },
      {
        path: '/device/event/description',
        title: 'route.eventDescriptions',
        permission: 'event.view',
        hidden: true,
        highlight: '/device/event',
        page: 'eventDescriptions',
      },
      { path: '/device/tasks', title: 'route.batchTasks', permission: 'inverter.upgrade', page: 'batchTasks' },
      { path: '/device/setting', title: 'route.deviceSetting', hidden: true, highlight: INVERTERS, page: 'deviceSettings' },
      { path: '/device/batt-setting', title: 'route.batterySetting', hidden: true, highlight: '/device/battery', page: 'batterySettings' },
    ],
  },
  {
    path: '/firmware',
    title: 'route.firmware',
    permission: 'firmware.management',
    redirect: '/firmware/list',
    children: [
      { path: '/firmware/list', title: 'route.firmwareList', permission: 'firmware.management', page: 'firmwareList' },
      { path: '/firmware/batt', title: 'route.batteryFirmware', permission: 'firmware.battery.view', page: 'batteryFirmware' },
      // The hardware list (issue 19; spec 02 §1 beside the firmware list).
      { path: '/firmware/hardware', title: 'route.hardwareList', permission: 'firmware.management', page: 'hardwareList' },
    ],
  },
  {
    path: '/workdata',
    title: 'route.workdata',
    permission: 'workdata.view',
    redirect: '/workdata/list',
    children: [{ path: '/workdata/list', title: 'route.workdataList', permission: 'workdata.view', page: 'workdataList' }],
  },
  {
    path: '/enterprise',
    title: 'route.enterprise',
    permission: 'company.management',
    redirect: '/enterprise/user',
    children: [
      { path: '/enterprise/company', title: 'route.companyInfo', permission: 'company.info', page: 'companyInfo' },
      { path: '/enterprise/user', title: 'route.members', permission: 'company.user', page: 'companyStaff' },
      { path: '/enterprise/roles', title: 'route.roles', permission: 'company.role.list.view', page: 'companyRoles' },
      { path: '/enterprise/channel', title: 'route.channel', permission: 'company.info', page: 'channel' },
    ],
  },
  {
    path: '/customer',
    title: 'route.customers',
    permission: 'user.producer',
    redirect: '/customer/list',
    children: [
      { path: '/customer/list', title: 'route.customerList', permission: 'customer.list.view', page: 'customerList' },
      { path: '/customer/type', title: 'route.customerTypes', permission: 'customer.type.list.view', page: 'customerTypes' },
    ],
  },
  // Reports (issue 21): spec 01 §2 names the area without a path ("report info highlights report").
  { path: '/report', title: 'route.report', permission: 'report.view', page: 'reports' },
  { path: '/report/info', title: 'route.report', permission: 'report.view', hidden: true, highlight: '/report', page: 'reports' },
  // The large-screen display's links (issue 20; spec 01 §187 fullscreen family): the display itself is /fullscreen.
  { path: '/fullscreen/links', title: 'route.displayLinks', permission: 'station.view', page: 'displayLinks' },
  // The open plant API (issue 25): API keys for other software and the company's webhooks.
  { path: '/open-api', title: 'route.openApi', permission: 'station.edit', page: 'openApi' },
  {
    path: '/log',
    title: 'route.logs',
    permission: 'logger.management',
    redirect: '/log/uphold',
    children: [
      { path: '/log/uphold', title: 'route.maintenanceLog', permission: 'logger.upgrade.record', page: 'upgradeLog' },
      { path: '/log/communication', title: 'route.communicationLog', permission: 'logger.management', page: 'communicationLog' },
      { path: '/log/debug', title: 'route.debugLog', permission: 'logger.management', page: 'debugLog' },
    ],
  },
  {
    // Spec 01 §2 names a management area without paths; its notices and versions live here (docs/decisions.md).
    path: '/system',
    title: 'route.management',
    permission: 'system.management',
    redirect: '/system/notices',
    children: [
      { path: '/system/notices', title: 'route.noticeManagement', permission: 'system.notice', page: 'noticeList' },
      { path: '/system/versions', title: 'route.versionManagement', permission: 'system.version', page: 'versionList' },
      { path: '/system/dictionary', title: 'route.dictionary', permission: 'system.dict', page: 'dictionary' },
      { path: '/system/oem', title: 'route.oemProjects', permission: 'system.oem', page: 'oemProjects' },
      { path: '/system/jobs', title: 'route.backgroundJobs', permission: 'system.jobs', page: 'backgroundJobs' },
      { path: '/system/video-grants', title: 'route.videoGrants', permission: 'system.management', page: 'videoGrants' },
      // Protocol analysis (issue 19; spec 01 §2 management, no path in the route table).
      { path: '/system/protocol-analysis', title: 'route.protocolAnalysis', permission: 'system.protocol', page: 'protocolAnalysis' },
      // Device protocols (issue 19; spec 01 §2 management: device protocols, no path in the route table).
      { path: '/system/protocols', title: 'route.protocolManagement', permission: 'system.protocol', page: 'protocolList' },
      {
        path: '/system/protocols/new',
        title: 'route.protocolCreate',
        permission: 'system.protocol.edit',
        hidden: true,
        highlight: '/system/protocols',
        page: 'protocolEditor',
      },
      {
        path: '/system/protocols/:id/edit',
        title: 'route.protocolEdit',
        permission: 'system.protocol.edit',
        hidden: true,
        highlight: '/system/protocols',
        page: 'protocolEditor',
      },
      {
        path: '/system/protocols/:id/history',
        title: 'route.protocolHistory',
        permission: 'system.protocol',
        hidden: true,
        highlight: '/system/protocols',
        page: 'protocolHistory',
      },
    ],
  },
  { path: '/logging', title: 'route.systemLog', hidden: true, page: 'updateLog' },
  { path: '/systemupdate', title: 'route.systemUpdate', hidden: true, page: 'releaseNotes' },
  // SMS sending and record (issue 8): no route in the spec's table, so a hidden one (docs/decisions.md).
  { path: '/sms', title: 'route.sms', permission: 'system.sms', hidden: true, page: 'smsRecords' },
  // Spec 01 §2 lists /download-center among the public routes, but it holds the caller's own files: a shell route
  // any signed-in user opens (a signed-out visitor signs in first and comes back), docs/decisions.md issue 21.
  { path: '/download-center', title: 'route.downloadCenter', page: 'downloadCenter' },
  // Toolbox (spec 02 §1; no path in the spec's route table): checksums, conversions, Modbus messages sent through remote debug.
  { path: '/toolbox', title: 'route.toolbox', permission: 'inverter.debug', page: 'toolbox' },
  { path: '/api/docs', title: 'route.apiDocs', newTab: true },
];

export function flattenRoutes(routes: readonly AppRoute[]): AppRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

export const ALL_SHELL_ROUTES = flattenRoutes(SHELL_ROUTES);
