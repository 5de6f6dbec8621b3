// The ban-list-export module's entry: the one file other modules and the composition root import (lint holds it).
export { sendBanListExport, type ExportSource } from './ban-list-export';
