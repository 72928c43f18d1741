import type { ComponentType } from 'react';
import { lazyNamed } from './lazy-page';
import type { AppRoute, PageName } from './route-table';

export interface PageProps {
  route: AppRoute;
}

/** Feature pages by name, each loaded on demand. */
export const PAGES: Record<PageName, ComponentType<PageProps>> = {
  placeholder: lazyNamed(() => import('../features/home/PlaceholderPage'), 'PlaceholderPage'),
  personalSettings: lazyNamed(() => import('../features/account/PersonalSettingsPage'), 'PersonalSettingsPage'),
  plantList: lazyNamed(() => import('../features/plants/list/PlantListPage'), 'PlantListPage'),
  plantAdd: lazyNamed(() => import('../features/plants/wizard/PlantWizardPage'), 'PlantWizardPage'),
  plantEdit: lazyNamed(() => import('../features/plants/edit/PlantEditPage'), 'PlantEditPage'),
  plantOverview: lazyNamed(() => import('../features/plants/overview/PlantOverviewPage'), 'PlantOverviewPage'),
  plantCompare: lazyNamed(() => import('../features/plants/compare/PlantComparePage'), 'PlantComparePage'),
  inverterList: lazyNamed(() => import('../features/devices/list/DeviceListPages'), 'InverterListPage'),
  batteryList: lazyNamed(() => import('../features/devices/list/DeviceListPages'), 'BatteryListPage'),
  otherDeviceList: lazyNamed(() => import('../features/devices/list/DeviceListPages'), 'OtherDeviceListPage'),
  batchTasks: lazyNamed<PageProps, 'BatchTasksPage'>(() => import('../features/devices/tasks/BatchTasksPage'), 'BatchTasksPage'),
  upgradeLog: lazyNamed(() => import('../features/devices/logs/CommandLogPages'), 'UpgradeLogPage'),
  communicationLog: lazyNamed(() => import('../features/devices/logs/CommandLogPages'), 'CommunicationLogPage'),
  debugLog: lazyNamed(() => import('../features/devices/logs/CommandLogPages'), 'DebugLogPage'),
  acSwitchList: lazyNamed(() => import('../features/devices/list/DeviceListPages'), 'AcSwitchListPage'),
  deviceDetail: lazyNamed(() => import('../features/devices/detail/DeviceDetailPage'), 'DeviceDetailPage'),
  workdataList: lazyNamed(() => import('../features/devices/workdata/WorkdataPage'), 'WorkdataPage'),
  eventList: lazyNamed<PageProps, 'EventListPage'>(() => import('../features/devices/events/EventListPage'), 'EventListPage'),
  gatewayList: lazyNamed<PageProps, 'GatewayListPage'>(() => import('../features/devices/gateways/GatewayListPage'), 'GatewayListPage'),
  firmwareList: lazyNamed<PageProps, 'FirmwareListPage'>(() => import('../features/firmware/FirmwareListPage'), 'FirmwareListPage'),
};
