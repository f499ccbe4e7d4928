"""The ONNX operators `acl-lab atc` converts: those ATC's ONNX parser converts, as CANN lists
them, which onnxruntime (the simulator's executor) runs.

Source: CANN 8.0.0 "支持ONNX算子清单" (AI框架算子支持清单, operatorlist_00176: ONNX 1.12,
opset per operator, ONNX Runtime 1.14), read in the standard ONNX spelling (its "Argmax",
"Cumsum", "LogSoftMax" are ArgMax, CumSum, LogSoftmax). The list names one set for every
SoC the kit simulates. Left out: its Ascend custom operators (AdaptiveAvgPool2D,
AscendQuant, AscendAntiQuant, BatchMultiClassNMS, Corr, DeformableConv2D, DynSeqOuter,
EmbeddingBag, LSTMP, MovingSumWithSigmoid, RoiExtractor), which are no ONNX operators
onnxruntime can run. Anything else (Loop, Scan, Upsample, QuantizeLinear, an operator of
another domain ...) is refused as ATC refuses it: E19010, no parser registered.
"""
from __future__ import annotations

SUPPORTED = frozenset({
    "Abs", "Acos", "Acosh", "Add", "AffineGrid", "And", "ArgMax", "ArgMin", "Asin", "Asinh",
    "Atan", "Atanh", "AveragePool", "BatchNormalization", "BitShift", "BitwiseAnd",
    "BitwiseNot", "BitwiseOr", "BitwiseXor", "Cast", "Ceil", "Celu", "Clip", "Compress",
    "Concat", "Constant", "ConstantOfShape", "Conv", "ConvTranspose", "Cos", "Cosh", "CumSum",
    "DepthToSpace", "Det", "Div", "Dropout", "Einsum", "Elu", "Equal", "Erf", "Exp", "Expand",
    "EyeLike", "Flatten", "Floor", "Gather", "GatherElements", "GatherND", "Gemm",
    "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool", "Greater", "GreaterOrEqual",
    "GridSample", "GRU", "Hardmax", "HardSigmoid", "HardSwish", "Identity", "If",
    "InstanceNormalization", "IsInf", "IsNaN", "LayerNormalization", "LeakyRelu", "Less",
    "LessOrEqual", "Log", "LogSoftmax", "LpNormalization", "LpPool", "LRN", "LSTM", "MatMul",
    "Max", "MaxPool", "MaxRoiPool", "MaxUnpool", "Mean", "MeanVarianceNormalization", "Min",
    "Mod", "Mul", "Multinomial", "Neg", "NonMaxSuppression", "NonZero", "Not", "OneHot", "Or",
    "Pad", "Pow", "PRelu", "RandomNormal", "RandomNormalLike", "RandomUniform",
    "RandomUniformLike", "Range", "Reciprocal", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum",
    "ReduceSumSquare", "Relu", "Reshape", "Resize", "ReverseSequence", "RoiAlign", "Round",
    "Scatter", "ScatterElements", "ScatterND", "Selu", "Shape", "Shrink", "Sigmoid", "Sign",
    "Sin", "Sinh", "Size", "Slice", "Softmax", "SoftmaxCrossEntropyLoss", "Softplus",
    "Softsign", "SpaceToDepth", "Split", "Sqrt", "Squeeze", "Sub", "Sum", "Tan", "Tanh",
    "TfIdfVectorizer", "ThresholdedRelu", "Tile", "TopK", "Transpose", "Trilu", "Unsqueeze",
    "Where", "Xor"})

#: operators that hold subgraphs (their branches are checked like the graph itself)
WITH_SUBGRAPHS = frozenset({"If"})

#: operators that draw random numbers: onnxruntime seeds one without a ``seed`` attribute
#: from the clock, so atc gives each a seed (their sequence then repeats run after run, as
#: the kit's notebooks need; each execution still draws new numbers)
RANDOM = frozenset({"Multinomial", "RandomNormal", "RandomNormalLike", "RandomUniform",
                    "RandomUniformLike"})
