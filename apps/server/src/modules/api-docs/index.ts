// The api-docs module's entry: the one file other modules and the composition root import (lint holds it).
export { apiDocsRoutes, registerApiDocument } from './api-docs.routes';
