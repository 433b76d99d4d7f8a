"""SQL schema, views and saved queries, shipped inside the package as pipeline.warehouse."""
