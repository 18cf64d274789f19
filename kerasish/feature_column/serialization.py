"""Feature columns to and from plain configs (for saving `DenseFeatures`)."""
MODULE = "kerasish.feature_column"


def _classes():
    # lazy: a top-level import would close an import circle
    from kerasish.feature_column.categorical import (
        HashedCategoricalColumn, IdentityCategoricalColumn,
        WeightedCategoricalColumn)
    # lazy: a top-level import would close an import circle
    from kerasish.feature_column.vocabulary import (
        VocabularyFileCategoricalColumn, VocabularyListCategoricalColumn)
    # lazy: a top-level import would close an import circle
    from kerasish.feature_column.crossed import CrossedColumn
    # lazy: a top-level import would close an import circle
    from kerasish.feature_column.dense_columns import (EmbeddingColumn,
                                                       IndicatorColumn)
    # lazy: a top-level import would close an import circle
    from kerasish.feature_column.numeric import (BucketizedColumn,
                                                 NumericColumn)
    from kerasish.feature_column.shared_embedding import \
        SharedEmbeddingColumn
    classes = [NumericColumn, BucketizedColumn, HashedCategoricalColumn,
               IdentityCategoricalColumn, VocabularyFileCategoricalColumn,
               VocabularyListCategoricalColumn, WeightedCategoricalColumn,
               CrossedColumn, EmbeddingColumn, IndicatorColumn,
               SharedEmbeddingColumn]
    return {cls.__name__: cls for cls in classes}


def serialize(column):
    """`{"module", "class_name", "config"}` of a feature column.

    Example:

    >>> from kerasish.feature_column import numeric_column
    >>> serialize(numeric_column("age"))["config"]["shape"]
    [1]
    """
    return {"module": MODULE, "class_name": type(column).__name__,
            "config": column.get_config()}


def deserialize(config, custom_objects=None):
    """The feature column described by `serialize`'s output.

    Example:

    >>> from kerasish.feature_column import numeric_column
    >>> column = numeric_column("age")
    >>> deserialize(serialize(column)) == column
    True
    """
    classes = _classes()
    name = config.get("class_name")
    if name not in classes:
        raise ValueError(f"Unknown feature column class {name!r}. Known: "
                         f"{sorted(classes)}")
    return classes[name].from_config(config["config"],
                                     custom_objects=custom_objects)
