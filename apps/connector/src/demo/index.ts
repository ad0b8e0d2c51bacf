// The demo: the sandboxes' account installed, connected and set up at start-up.
// The one door into demo/: other folders import only what is exported here.
export { demoNextSteps, runDemo } from './run-demo';
