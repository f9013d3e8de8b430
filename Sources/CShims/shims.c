int albumkit_cshims_anchor = 0;
