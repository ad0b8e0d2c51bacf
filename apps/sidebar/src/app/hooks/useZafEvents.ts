import { useEffect, useRef } from 'react';
import type { ZafClient } from '../zaf/zafClient';

/** Subscribes a handler to ZAF events, debounced so one ticket save with many changes refreshes once. */
export function useZafEvents(
  client: ZafClient,
  names: readonly string[],
  handler: () => void,
  debounceMs = 300,
) {
  const latest = useRef(handler);
  latest.current = handler;
  const key = names.join('|');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listener = () => {
      clearTimeout(timer);
      timer = setTimeout(() => latest.current(), debounceMs);
    };
    const subscribed = key.split('|').filter(Boolean);
    for (const name of subscribed) client.on(name, listener);
    return () => {
      clearTimeout(timer);
      for (const name of subscribed) client.off(name, listener);
    };
  }, [client, key, debounceMs]);
}
