"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DIM_OPACITY = exports.INVERTED_DEFAULT_COLOR = void 0;
exports.INVERTED_DEFAULT_COLOR = -1;
exports.DIM_OPACITY = 0.5;
//# sourceMappingURL=Types.js.map