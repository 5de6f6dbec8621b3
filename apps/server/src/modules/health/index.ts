// The health module's entry: the one file other modules and the composition root import (lint holds it).
export { healthRoutes } from './health.routes';
