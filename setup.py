"""Install hyena_lit. Versions come from settings.ini, the one place nbdev reads them too."""
from configparser import ConfigParser
from pathlib import Path

import setuptools

cfg = ConfigParser(delimiters=["="])
cfg.read(Path(__file__).parent / "settings.ini")
cfg = cfg["DEFAULT"]

requirements = cfg["requirements"].split()
dev_requirements = cfg["dev_requirements"].split()
# Triton ships Linux wheels only; on a CUDA machine torch brings the triton it was built with.
gpu_requirements = ['triton>=3.2; platform_system == "Linux"']

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    long_description=(Path(__file__).parent / "README.md").read_text(),
    long_description_content_type="text/markdown",
    author=cfg["author"],
    license="Apache-2.0",
    url=cfg["git_url"],
    packages=setuptools.find_packages(include=[cfg["lib_path"], cfg["lib_path"] + ".*"]),
    python_requires=">=" + cfg["min_python"],
    install_requires=requirements,
    extras_require={"dev": dev_requirements + gpu_requirements, "triton": gpu_requirements},
    package_data={cfg["lib_name"]: ["eval/lm_eval_tasks/*.yaml", "eval/lm_eval_tasks/fixtures/*/*.jsonl"]},  # the offline task files (60_downstream)
    zip_safe=False,
)
