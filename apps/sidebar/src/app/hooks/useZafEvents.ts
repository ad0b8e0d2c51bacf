import { useEffect, useRef } from 'react';
import type { ZafClient } from '../zaf/zafClient';

/**
 * Subscribes a handler to ZAF events, debounced so one ticket save with many changes refreshes once.
 * `ignore` drops an event by its name and payload before it counts.
 */
export function useZafEvents(
  client: ZafClient,
  names: readonly string[],
  handler: () => void,
  debounceMs = 300,
  ignore?: (name: string, payload: unknown) => boolean,
) {
  const latestIgnore = useRef(ignore);
  latestIgnore.current = ignore;
  const latest = useRef(handler);
  latest.current = handler;
  const key = names.join('|');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscribed = key.split('|').filter(Boolean);
    const listeners = subscribed.map((name) => {
      const listener = (payload?: unknown) => {
        if (latestIgnore.current?.(name, payload)) return;
        clearTimeout(timer);
        timer = setTimeout(() => latest.current(), debounceMs);
      };
      client.on(name, listener);
      return [name, listener] as const;
    });
    return () => {
      clearTimeout(timer);
      for (const [name, listener] of listeners) client.off(name, listener);
    };
  }, [client, key, debounceMs]);
}
