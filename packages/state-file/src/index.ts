export { writeFileDurably } from './write-durably';
export { StateFileWriter, type StateFileWriterOptions } from './state-file-writer';
export {
  openStateFile,
  readStateFile,
  setStateFileAside,
  type TStateFileOpening,
  type TStateFileRead,
} from './read-state-file';
export {
  lockStateFile,
  stateFileHolder,
  StateFileLockedError,
  type TStateFileLock,
} from './state-file-lock';
export { pidLockHolder, takePidLock, type PidLock } from './pid-lock';
