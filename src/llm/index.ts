// What other folders may use from src/llm/.
export { makeTinyModel, TINY_MODEL_GENERATOR_VERSION, type TinyModelOptions, type TinyModelResult, type TinyModelDtype } from "./tiny-model/make-tiny-model.ts";
export { TINY_MODEL_SHAPES, type TinyModelShape } from "./tiny-model/shapes.ts";
export { readQwen25Template, llamaCppBundlePath, QWEN25_TEMPLATE_PATH } from "./tiny-model/chat-template.ts";
