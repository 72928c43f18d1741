import type { ComponentType } from 'react';
import { lazyNamed } from './lazy-page';
import type { PageProps } from './page-props';
import type { PageName } from './route-table';
import './settings-slots';

export type { PageProps };

/** A feature page loaded on demand; typed as a page (it takes the route), whatever else its module exports. */
const page = <K extends string>(loader: () => Promise<Record<K, ComponentType<PageProps>>>, name: K) => lazyNamed(loader, name);

/** Feature pages by name, each loaded on demand. */
export const PAGES: Record<PageName, ComponentType<PageProps>> = {
  placeholder: page(() => import('../features/home/PlaceholderPage'), 'PlaceholderPage'),
  appCenter: page(() => import('../features/smart/AppCenterPage'), 'AppCenterPage'),
  smartLights: page(() => import('../features/smart/LightsPage'), 'LightsPage'),
  smartRules: page(() => import('../features/smart/RulesPage'), 'RulesPage'),
  videoSpaces: page(() => import('../features/video/VideoSpacesPage'), 'VideoSpacesPage'),
  videoDevices: page(() => import('../features/video/VideoDevicesPage'), 'VideoDevicesPage'),
  videoPlayer: page(() => import('../features/video/VideoPlayerPage'), 'VideoPlayerPage'),
  videoGrants: page(() => import('../features/video/VideoGrantsPage'), 'VideoGrantsPage'),
  energyHubEnrollment: page(() => import('../features/energy-hub/EnrollmentPage'), 'EnrollmentPage'),
  energyHubEvents: page(() => import('../features/energy-hub/EventsPage'), 'EventsPage'),
  energyHubDevices: page(() => import('../features/energy-hub/DevicesPage'), 'DevicesPage'),
  energyHubSettings: page(() => import('../features/energy-hub/SettingsPage'), 'SettingsPage'),
  // Company and customers (issue 7)
  companyInfo: page(() => import('../features/company/CompanyInfoPage'), 'CompanyInfoPage'),
  companyStaff: page(() => import('../features/company/StaffPage'), 'StaffPage'),
  companyRoles: page(() => import('../features/company/RolesPage'), 'RolesPage'),
  customerList: page(() => import('../features/customers/CustomersPage'), 'CustomersPage'),
  customerTypes: page(() => import('../features/customers/CustomerTypesPage'), 'CustomerTypesPage'),
  personalSettings: page(() => import('../features/account/PersonalSettingsPage'), 'PersonalSettingsPage'),
  plantList: page(() => import('../features/plants/list/PlantListPage'), 'PlantListPage'),
  plantAdd: page(() => import('../features/plants/wizard/PlantWizardPage'), 'PlantWizardPage'),
  plantEdit: page(() => import('../features/plants/edit/PlantEditPage'), 'PlantEditPage'),
  plantOverview: page(() => import('../features/plants/overview/PlantOverviewPage'), 'PlantOverviewPage'),
  plantCompare: page(() => import('../features/plants/compare/PlantComparePage'), 'PlantComparePage'),
  plantLayout: page(() => import('../features/plants/layout/PlantLayoutPage'), 'PlantLayoutPage'),
  inverterList: page(() => import('../features/devices/list/DeviceListPages'), 'InverterListPage'),
  batteryList: page(() => import('../features/devices/list/DeviceListPages'), 'BatteryListPage'),
  otherDeviceList: page(() => import('../features/devices/list/DeviceListPages'), 'OtherDeviceListPage'),
  batchTasks: page(() => import('../features/devices/tasks/BatchTasksPage'), 'BatchTasksPage'),
  upgradeLog: page(() => import('../features/devices/logs/LogPages'), 'MaintenanceLogPage'),
  communicationLog: page(() => import('../features/devices/logs/LogPages'), 'CommunicationHistoryPage'),
  debugLog: page(() => import('../features/devices/logs/CommandLogPages'), 'DebugLogPage'),
  acSwitchList: page(() => import('../features/devices/ac-switch/AcSwitchListPage'), 'AcSwitchListPage'),
  deviceDetail: page(() => import('../features/devices/detail/DeviceDetailPage'), 'DeviceDetailPage'),
  workdataList: page(() => import('../features/devices/workdata/WorkdataPage'), 'WorkdataPage'),
  eventList: page(() => import('../features/devices/events/EventListPage'), 'EventListPage'),
  gatewayList: page(() => import('../features/devices/gateways/GatewayListPage'), 'GatewayListPage'),
  firmwareList: page(() => import('../features/firmware/FirmwareListPage'), 'FirmwareListPage'),
  noticeList: page(() => import('../features/notices/NoticeListPage'), 'NoticeListPage'),
  versionList: page(() => import('../features/versions/VersionListPage'), 'VersionListPage'),
  hardwareList: page(() => import('../features/hardware/HardwarePage'), 'HardwarePage'),
  protocolList: page(() => import('../features/protocols/ProtocolListPage'), 'ProtocolListPage'),
  protocolEditor: page(() => import('../features/protocols/ProtocolEditorPage'), 'ProtocolEditorPage'),
  protocolHistory: page(() => import('../features/protocols/ProtocolHistoryPage'), 'ProtocolHistoryPage'),
  updateLog: page(() => import('../features/versions/UpdateLogPage'), 'UpdateLogPage'),
  releaseNotes: page(() => import('../features/versions/ReleaseNotesPage'), 'ReleaseNotesPage'),
  batteryFirmware: page(() => import('../features/firmware/battery/BatteryFirmwarePage'), 'BatteryFirmwarePage'),
  deviceSettings: page(() => import('../features/settings/SettingsPage'), 'DeviceSettingsPage'),
  batterySettings: page(() => import('../features/settings/SettingsPage'), 'BatterySettingsPage'),
  notice: page(() => import('../features/notifications/NoticePage'), 'NoticePage'),
  smsRecords: page(() => import('../features/notifications/SmsPage'), 'SmsPage'),
  dictionary: page(() => import('../features/dictionary/DictionaryPage'), 'DictionaryPage'),
  oemProjects: page(() => import('../features/oem/OemListPage'), 'OemListPage'),
  backgroundJobs: page(() => import('../features/jobs/BackgroundJobsPage'), 'BackgroundJobsPage'),
  downloadCenter: page(() => import('../features/files/DownloadCenterPage'), 'DownloadCenterPage'),
  toolbox: page(() => import('../features/toolbox/ToolboxPage'), 'ToolboxPage'),
  protocolAnalysis: page(() => import('../features/protocol-analysis/ProtocolAnalysisPage'), 'ProtocolAnalysisPage'),
  reports: page(() => import('../features/reports/ReportsPage'), 'ReportsPage'),
  eventDescriptions: page(() => import('../features/devices/events/EventDescriptionsPage'), 'EventDescriptionsPage'),
  channel: page(() => import('../features/channel/ChannelPage'), 'ChannelPage'),
  displayLinks: page(() => import('../features/fullscreen/DisplayLinksPage'), 'DisplayLinksPage'),
  openApi: page(() => import('../features/open-api/OpenApiPage'), 'OpenApiPage'),
};
