// `npm run reset`: deletes what `npm start` kept (.data/: the connector's database, both
// sandboxes' state, the development key), so the next start is a new demo. Refuses while the demo
// runs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DemoRunningError } from './demo-data/demo-data-locks';
import { demoDataPaths } from './demo-data/demo-data-paths';
import { resetDemoData } from './demo-data/reset-demo-data';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const paths = demoDataPaths(root, process.env);
try {
  const removed = resetDemoData(root, paths);
  console.log(
    removed.length > 0
      ? `Removed ${removed.join(', ')}: the next npm start is a new demo.`
      : 'Nothing to remove: the next npm start is a new demo.',
  );
  if (paths.connectorDb.kind === 'postgres')
    console.log("The connector's database is DATABASE_URL: not touched (empty it yourself).");
} catch (error) {
  if (!(error instanceof DemoRunningError)) throw error;
  console.error(error.message);
  process.exit(1);
}
