// Push notifications are not supported (the card says capabilities.pushNotifications: false), so
// every push-config operation is refused with PushNotificationNotSupportedError (-32003; HTTP 400
// on HTTP+JSON) on every binding, before its parameters or its task are looked at: the answer is
// the same whatever they are, and a client learns the capability is missing rather than that a
// method or route does not exist (-32601 / 404), which read as a broken agent.
import type { Generation } from '../protocol/a2aTypes.ts';
import { A2AError, A2A_PUSH_NOT_SUPPORTED } from '../protocol/errorCodes.ts';

/** The push-config JSON-RPC methods of each generation (A2A 1.0 §9.4, A2A 0.3 §7.5-7.8). */
export const PUSH_CONFIG_METHODS: Record<Generation, readonly string[]> = {
  '1.0': [
    'CreateTaskPushNotificationConfig',
    'GetTaskPushNotificationConfig',
    'ListTaskPushNotificationConfigs',
    'DeleteTaskPushNotificationConfig',
  ],
  '0.3': [
    'tasks/pushNotificationConfig/set',
    'tasks/pushNotificationConfig/get',
    'tasks/pushNotificationConfig/list',
    'tasks/pushNotificationConfig/delete',
  ],
};

/** The HTTP+JSON 1.0 push-config routes: /tasks/{id}/pushNotificationConfigs[/{configId}], any method. */
export const PUSH_CONFIG_ROUTE = /^\/tasks\/[^/:]+\/pushNotificationConfigs(?:\/[^/:]+)?$/;

export function pushNotSupported(): A2AError {
  return new A2AError(
    A2A_PUSH_NOT_SUPPORTED,
    'push notifications are not supported by this agent (capabilities.pushNotifications is false)',
  );
}
