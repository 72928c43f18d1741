import * as acSwitchTasks from '@sunward/contracts/ac-switch-tasks';
import * as acSwitches from '@sunward/contracts/ac-switches';
import * as account from '@sunward/contracts/account';
import * as auth from '@sunward/contracts/auth';
import * as batchTasks from '@sunward/contracts/batch-tasks';
import * as batteryFirmware from '@sunward/contracts/battery-firmware';
import * as channel from '@sunward/contracts/channel';
import * as commands from '@sunward/contracts/commands';
import * as company from '@sunward/contracts/company';
import * as customers from '@sunward/contracts/customers';
import * as devices from '@sunward/contracts/devices';
import * as dictionary from '@sunward/contracts/dictionary';
import * as energyHub from '@sunward/contracts/energy-hub';
import * as envelope from '@sunward/contracts/envelope';
import * as eventDescriptions from '@sunward/contracts/event-descriptions';
import * as events from '@sunward/contracts/events';
import * as files from '@sunward/contracts/files';
import * as firmware from '@sunward/contracts/firmware';
import * as firmwareReleases from '@sunward/contracts/firmware-releases';
import * as fullscreen from '@sunward/contracts/fullscreen';
import * as gatewayProtocol from '@sunward/contracts/gateway-protocol';
import * as gateways from '@sunward/contracts/gateways';
import * as hardware from '@sunward/contracts/hardware';
import * as ids from '@sunward/contracts/ids';
import * as invitations from '@sunward/contracts/invitations';
import * as jobs from '@sunward/contracts/jobs';
import * as liveEvents from '@sunward/contracts/live-events';
import * as logs from '@sunward/contracts/logs';
import * as mqttAuth from '@sunward/contracts/mqtt-auth';
import * as notices from '@sunward/contracts/notices';
import * as notifications from '@sunward/contracts/notifications';
import * as oem from '@sunward/contracts/oem';
import * as openApi from '@sunward/contracts/open-api';
import * as permissions from '@sunward/contracts/permissions';
import * as plantEnergy from '@sunward/contracts/plant-energy';
import * as plantLayout from '@sunward/contracts/plant-layout';
import * as plants from '@sunward/contracts/plants';
import * as protocolAnalysis from '@sunward/contracts/protocol-analysis';
import * as protocolSwitch from '@sunward/contracts/protocol-switch';
import * as protocols from '@sunward/contracts/protocols';
import * as reports from '@sunward/contracts/reports';
import * as simulatedFleet from '@sunward/contracts/simulated-fleet';
import * as smartHome from '@sunward/contracts/smart-home';
import * as thirdParty from '@sunward/contracts/third-party';
import * as thirdPartyProviders from '@sunward/contracts/third-party-providers';
import * as versions from '@sunward/contracts/versions';
import * as video from '@sunward/contracts/video';
import { z } from 'zod';

/**
 * Every contracts module with wire shapes, by its file name: each exported `…Schema` becomes a component
 * (`PlantCreateSchema` → `#/components/schemas/PlantCreate`) referenced wherever a route uses it, so a shape
 * is written once in the document as in the code. openapi/components.test.ts fails when a contracts module
 * with schemas is missing here.
 */
export const CONTRACT_MODULES: Readonly<Record<string, Record<string, unknown>>> = {
  account: account,
  'ac-switches': acSwitches,
  'ac-switch-tasks': acSwitchTasks,
  auth: auth,
  'batch-tasks': batchTasks,
  'battery-firmware': batteryFirmware,
  channel: channel,
  commands: commands,
  company: company,
  customers: customers,
  devices: devices,
  dictionary: dictionary,
  'energy-hub': energyHub,
  envelope: envelope,
  'event-descriptions': eventDescriptions,
  events: events,
  files: files,
  'firmware-releases': firmwareReleases,
  firmware: firmware,
  fullscreen: fullscreen,
  'gateway-protocol': gatewayProtocol,
  gateways: gateways,
  hardware: hardware,
  ids: ids,
  invitations: invitations,
  jobs: jobs,
  'live-events': liveEvents,
  logs: logs,
  'mqtt-auth': mqttAuth,
  notices: notices,
  notifications: notifications,
  oem: oem,
  'open-api': openApi,
  permissions: permissions,
  'plant-energy': plantEnergy,
  'plant-layout': plantLayout,
  plants: plants,
  'protocol-analysis': protocolAnalysis,
  'protocol-switch': protocolSwitch,
  protocols: protocols,
  reports: reports,
  'simulated-fleet': simulatedFleet,
  'smart-home': smartHome,
  'third-party-providers': thirdPartyProviders,
  'third-party': thirdParty,
  versions: versions,
  video: video,
};

/** Component names: the export without `Schema` (`…Input` + `Data`); a name exported by two modules gets its module's name in front. */
export function componentNames(modules: Readonly<Record<string, Record<string, unknown>>>): Map<z.ZodType, string> {
  const exporters = new Map<string, number>();
  for (const exports of Object.values(modules))
    for (const name of Object.keys(exports)) if (isSchemaExport(name, exports[name])) exporters.set(name, (exporters.get(name) ?? 0) + 1);
  const names = new Map<z.ZodType, string>();
  for (const [module, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!isSchemaExport(name, value) || names.has(value)) continue;
      const stem = name.slice(0, -'Schema'.length);
      // The transform names a shape's request variant `<name>Input`: a contracts name ending so would collide.
      const base = stem.endsWith('Input') ? `${stem}Data` : stem;
      names.set(value, (exporters.get(name) ?? 0) > 1 ? `${pascal(module)}${base}` : base);
    }
  }
  return names;
}

function isSchemaExport(name: string, value: unknown): value is z.ZodType {
  return name.endsWith('Schema') && name.length > 'Schema'.length && value instanceof z.ZodType;
}

function pascal(module: string): string {
  return module.replace(/(^|-)([a-z])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());
}

let registered = false;

/**
 * Gives the contracts' schemas their component names in zod's global registry, which the document's
 * transform reads (fastify-type-provider-zod); once per process, keeping any metadata a schema already has.
 */
export function registerContractSchemas(): void {
  if (registered) return;
  registered = true;
  for (const [schema, id] of componentNames(CONTRACT_MODULES)) {
    if (z.globalRegistry.has(schema) && z.globalRegistry.get(schema)?.id) continue;
    z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  }
}
