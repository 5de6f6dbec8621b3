// The ban-list-expiry module's entry: the one file other modules and the composition root import (lint holds it).
export { EXPIRY_BATCH, ITEM_EXPIRY, ItemExpiry } from './item-expiry';
