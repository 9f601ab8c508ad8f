import numpy as np
from numpy.typing import ArrayLike

BLOCK: int

def roll_all(stream: object, n: int) -> np.ndarray: ...
def pcg64_seed_words(entropy: int, spawn_key: tuple[int, ...] = ...) -> np.ndarray: ...
