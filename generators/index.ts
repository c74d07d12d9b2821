import { alertUpdateBodyBadEnum } from './alertUpdateBodyBadEnum.ts';
import type { InvalidGenerator } from './invalidGenerator.ts';
import { keyCreateBodyEmptyRoles } from './keyCreateBodyEmptyRoles.ts';
import { keyCreateBodyUnknownRole } from './keyCreateBodyUnknownRole.ts';
import { pipeCreateBodyUnmappedColumn } from './pipeCreateBodyUnmappedColumn.ts';
import { serviceCommandInvalid } from './serviceCommandInvalid.ts';
import { usagePeriodTooLong } from './usagePeriodTooLong.ts';
import { usageQueryMissingParam } from './usageQueryMissingParam.ts';

export { accessKey, type AccessKey } from './accessKey.ts';
export type { AlertReference } from './alertReference.ts';
export {
  alertUpdateBody,
  type AlertUpdateBody,
  type AlertUpdateConstraints,
  type CompleteAlertUpdateBody,
} from './alertUpdateBody.ts';
export { alertUpdateBodyObserve } from './alertUpdateBodyObserve.ts';
export { alertUpdateBodyBadEnum } from './alertUpdateBodyBadEnum.ts';
export { brokerSourceCreate, type BrokerSourceCreate } from './brokerSourceCreate.ts';
export { caCertificate } from './caCertificate.ts';
export { credentials, type SourceCredentials } from './credentials.ts';
export { dateTime } from './dateTime.ts';
export { destinationColumns, type DestinationColumn } from './destinationColumns.ts';
export { fieldMappings, type FieldMapping } from './fieldMappings.ts';
export { iamRole } from './iamRole.ts';
export { identifier } from './identifier.ts';
export type { InvalidGenerator } from './invalidGenerator.ts';
export { ipAccessList, type IpAccessEntry } from './ipAccessList.ts';
export { KEY_ROLES, keyCreateBody, type KeyCreateBody, type KeyExpiry } from './keyCreateBody.ts';
export { keyCreateBodyObserve } from './keyCreateBodyObserve.ts';
export { type KeyHashData, keyHashData } from './keyHashData.ts';
export { keyCreateBodyEmptyRoles } from './keyCreateBodyEmptyRoles.ts';
export { keyCreateBodyUnknownRole } from './keyCreateBodyUnknownRole.ts';
export { oddNumber } from './oddNumber.ts';
export { oddReference } from './oddReference.ts';
export { oddText } from './oddText.ts';
export { objectStorageSourceCreate, type ObjectStorageSourceCreate } from './objectStorageSourceCreate.ts';
export { pipeCreateBody, type PipeCreateBody } from './pipeCreateBody.ts';
export { pipeCreateBodyObserve } from './pipeCreateBodyObserve.ts';
export { pipeCreateBodyUnmappedColumn } from './pipeCreateBodyUnmappedColumn.ts';
export { pipeDestination, type PipeDestination, type TableDefinition } from './pipeDestination.ts';
export { PIPE_KINDS, pipeKind, type PipeKind } from './pipeKind.ts';
export { pipeScaling, type PipeScaling } from './pipeScaling.ts';
export { pipeSettings, type PipeSettings } from './pipeSettings.ts';
export { pipeSourceUpdate, type PipeSourceUpdate } from './pipeSourceUpdate.ts';
export { pipeUpdateBody, type PipeUpdateBody } from './pipeUpdateBody.ts';
export { pipeUpdateBodyObserve } from './pipeUpdateBodyObserve.ts';
export { pipeUpdatePatch, type PipeUpdatePatch } from './pipeUpdatePatch.ts';
export { relationalSettings, type RelationalSettings } from './relationalSettings.ts';
export { relationalSourceCreate, type RelationalSourceCreate } from './relationalSourceCreate.ts';
export { SECRET_VALUE_PATTERN, secretValue } from './secretValue.ts';
export { serviceCommand, type ServiceCommand } from './serviceCommand.ts';
export { serviceCommandInvalid } from './serviceCommandInvalid.ts';
export { streamSourceCreate, type StreamSourceCreate } from './streamSourceCreate.ts';
export { tableMappings, type TableMapping } from './tableMappings.ts';
export { usagePeriod, type UsagePeriod } from './usagePeriod.ts';
export { usagePeriodTooLong } from './usagePeriodTooLong.ts';
export { usageQueryMissingParam } from './usageQueryMissingParam.ts';

/** Every invalid generator, frozen: one per rule it breaks. */
export const INVALID_GENERATORS: readonly InvalidGenerator<unknown, never>[] = Object.freeze([
  pipeCreateBodyUnmappedColumn,
  keyCreateBodyEmptyRoles,
  keyCreateBodyUnknownRole,
  alertUpdateBodyBadEnum,
  usagePeriodTooLong,
  usageQueryMissingParam,
  serviceCommandInvalid,
] as InvalidGenerator<unknown, never>[]);
