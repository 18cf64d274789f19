"""The einsum equations of MultiHeadAttention's projections and products.

Projected tensors have shape `(batch, <other axes>, <attention axes>,
heads, channels)`; the batch, other and heads axes are the "batch" of the
attention products.
"""
import string

_LETTERS = string.ascii_lowercase


def projection_equation(free_dims, bound_dims, output_dims):
    """`(equation, bias_axes, output_rank)` of a projection.

    The input's first `free_dims` axes pass through, its last `bound_dims`
    are contracted with the kernel, which adds `output_dims` axes.
    """
    free = _LETTERS[:free_dims]
    bound = _LETTERS[free_dims:free_dims + bound_dims]
    out = _LETTERS[free_dims + bound_dims:
                   free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out, free_dims + \
        output_dims


def attention_equations(rank, attention_axes):
    """`(dot_product, combine, scores_rank)` equations for the products.

    `dot_product` maps (key, query) to scores laid out as (batch axes,
    query attention axes, key attention axes); `combine` maps (scores,
    value) back to the query's layout.
    """
    target = _LETTERS[:rank]
    batch = [i for i in range(rank)
             if i not in attention_axes and i != rank - 1]
    source = list(target)
    fresh = iter(_LETTERS[rank:])
    for axis in attention_axes:
        source[axis] = next(fresh)
    source = "".join(source)
    product = "".join([target[i] for i in batch] +
                      [target[i] for i in attention_axes] +
                      [source[i] for i in attention_axes])
    return (f"{source},{target}->{product}",
            f"{product},{source}->{target}", len(product))
